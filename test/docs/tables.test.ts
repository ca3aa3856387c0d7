// Each fact in one place: the settings and error-code tables of docs/ are what `npm run docs:tables`
// renders from the code (src/config.ts, src/config/settings.ts, src/errors.ts), and the Redis key
// table of docs/operations.md names exactly the key spaces of src/redis/stores.ts. A variable, code or
// key space added without its text fails here, saying what to do.
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import t from 'tap'
import { envSchema, type EnvVariable } from '../../src/config.js'
import { settingRows, schemaDefault } from '../../src/config/rows.js'
import { type Setting, SETTINGS } from '../../src/config/settings.js'
import { REGIONS, regionIn, withRegion } from '../../src/cli/doc-regions.js'
import { KEY_SPACES } from '../../src/redis/stores.js'

const ROOT = resolve(import.meta.dirname, '../..')
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8')

/** What is wrong between the schema and the settings' texts, each with what to do. */
function settingProblems(settings: Partial<Record<string, Setting>>, variables: string[]): string[] {
  const problems: string[] = []
  for (const variable of variables) {
    const setting = settings[variable]
    if (!setting?.meaning)
      problems.push(
        `${variable} is in envSchema (src/config.ts) but has no meaning in SETTINGS (src/config/settings.ts): add what it does (and \`unset\` when the schema gives no default), then run \`npm run docs:tables\``,
      )
    else if (setting.unset !== undefined && schemaDefault(variable as EnvVariable) !== undefined)
      problems.push(
        `${variable}: the schema's default is its documented default; remove \`unset\` from its entry in src/config/settings.ts`,
      )
  }
  for (const variable of Object.keys(settings).filter((v) => !variables.includes(v)))
    problems.push(`${variable} is in src/config/settings.ts but not in envSchema (src/config.ts): remove it`)
  return problems
}

/** Each generated region of docs/ whose text is not what the code renders. */
function staleRegions(readDoc: (file: string) => string): string[] {
  return REGIONS.flatMap(({ file, name, body }) => {
    const current = regionIn(readDoc(file), name)
    if (current === undefined)
      return [`${file} lacks its <!-- ${name}:begin --> … <!-- ${name}:end --> markers`]
    return current === body()
      ? []
      : [`${file}'s "${name}" table differs from the code: run \`npm run docs:tables\` and commit the result`]
  })
}

/**
 * Rows of a settings table (one with a Default column) outside the generated regions: a hand-kept copy
 * that would drift. Other tables may name a variable (a value's effects, say).
 */
function handKeptSettingRows(file: string, text: string, variables: string[]): string[] {
  const outside = text.replace(/<!-- ([\w:-]+):begin -->[^]*?<!-- \1:end -->/g, '')
  const problems: string[] = []
  let header = ''
  for (const line of outside.split('\n')) {
    if (!line.startsWith('|')) header = ''
    else if (header === '') header = line
    const variable = /^\| `([A-Z][A-Z0-9_]*)` \|/.exec(line)?.[1]
    if (variable && variables.includes(variable) && /\bDefault\b/.test(header))
      problems.push(
        `${file} keeps ${variable}'s default by hand: replace its table with a generated region (REGIONS in src/cli/doc-regions.ts, then \`npm run docs:tables\`)`,
      )
  }
  return problems
}

/** The prefixes the Redis key table of docs/operations.md names, and what is wrong against KEY_SPACES. */
function keySpaceProblems(operations: string, spaces: Record<string, string>): string[] {
  const section = operations.slice(operations.indexOf('## Several instances: Redis'))
  const table = section.slice(
    section.indexOf('| What | Key |'),
    section.indexOf('\n\n', section.indexOf('| What | Key |')),
  )
  const named = new Set([...table.matchAll(/`(swap-gateway:[\w-]+:)/g)].map((m) => m[1]!))
  const problems: string[] = []
  for (const [space, prefix] of Object.entries(spaces))
    if (!named.has(prefix))
      problems.push(
        `KEY_SPACES.${space} (${prefix}, src/redis/stores.ts) has no row in docs/operations.md's key table ("Several instances: Redis"): add what its keys hold and how long they live`,
      )
  const known = new Set(Object.values(spaces))
  for (const prefix of named)
    if (!known.has(prefix))
      problems.push(
        `docs/operations.md's key table names ${prefix}, which is no key space of KEY_SPACES (src/redis/stores.ts): fix the row`,
      )
  return problems
}

const variables = Object.keys(envSchema.shape)

t.test('every variable of envSchema has its meaning, and its default is written once', async (t) => {
  t.ok(variables.length > 40, `${variables.length} variables read`)
  t.same(settingProblems(SETTINGS, variables), [])
})

t.test('the settings and error-code tables of docs/ are generated from the code', async (t) => {
  t.ok(REGIONS.length >= 4, `${REGIONS.length} tables read`)
  t.same(staleRegions(read), [])
  const configuration = regionIn(read('docs/configuration.md'), 'settings') ?? ''
  for (const variable of variables) t.match(configuration, `| \`${variable}\` |`, `${variable} is listed`)
  t.match(configuration, '| `SSE_MAX_PER_IP` | `20` |', "a default is the schema's")
  t.match(
    read('docs/api.md'),
    /\| `INVALID_AMOUNT` \| 400 \| no \| .*`amount`.*`intendedAmount`/,
    'INVALID_AMOUNT: both amounts',
  )
})

t.test('no settings table of the README or docs/ is kept by hand', async (t) => {
  const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((name) => `docs/${name}`)]
  t.same(
    files.filter((f) => f.endsWith('.md')).flatMap((f) => handKeptSettingRows(f, read(f), variables)),
    [],
  )
})

t.test("docs/operations.md's Redis key table names exactly the key spaces", async (t) => {
  t.same(keySpaceProblems(read('docs/operations.md'), KEY_SPACES), [])
})

t.test('each check fails on a drift, saying what to do', async (t) => {
  const added = [...variables, 'WATCH_EXAMPLE_MS']
  t.match(settingProblems(SETTINGS, added), [
    /WATCH_EXAMPLE_MS is in envSchema .* add what it does .*npm run docs:tables/,
  ])
  t.match(settingProblems({ ...SETTINGS, PORT: { meaning: 'x', unset: '3000' } }, variables), [
    /PORT: .*remove `unset`/,
  ])
  t.match(settingProblems({ ...SETTINGS, GONE: { meaning: 'x' } }, variables), [/GONE .* not in envSchema/])

  const edited = (file: string) =>
    file === 'docs/api.md'
      ? read(file).replace('| `INVALID_AMOUNT` | 400 |', '| `INVALID_AMOUNT` | 422 |')
      : read(file)
  t.match(staleRegions(edited), [/docs\/api.md's "error-codes" table differs .*npm run docs:tables/])
  t.match(
    staleRegions((file) => read(file).replace('<!-- settings:begin -->', '')),
    [/lacks its <!-- settings:begin -->/],
  )
  const regenerated = withRegion(
    edited('docs/api.md'),
    'error-codes',
    REGIONS.find((r) => r.name === 'error-codes')!.body(),
  )
  t.equal(regenerated, read('docs/api.md'), 'the writer restores the table')
  t.throws(() => withRegion('no markers', 'settings', ''), /no <!-- settings:begin -->/)

  const operations = read('docs/operations.md')
  t.match(keySpaceProblems(operations, { ...KEY_SPACES, examples: 'swap-gateway:example:' }), [
    /KEY_SPACES.examples .* has no row/,
  ])
  const { nonces: _, ...fewer } = KEY_SPACES
  t.match(keySpaceProblems(operations, fewer), [/names swap-gateway:nonce:, which is no key space/])
  t.ok(
    settingRows().every((r) => r.meaning !== ''),
    'rows carry meanings',
  )
})
