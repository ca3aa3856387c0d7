// The repository is what users get: the README and docs/ must stand alone. Every relative link
// resolves to a file of the repository (and its anchor to a heading there), and nothing points at
// documents that only exist outside it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import t from 'tap'

const ROOT = resolve(import.meta.dirname, '../..')
/** Text that names a document outside the repository. */
const OUTSIDE = [/\.\.\/shared\b/, /\bshared\/(CONTRACT|upstream)/, /\bCONTRACT\b/, /000_94693d4db86aa72b/]
/** What a source file's comments and strings get wrong: a document outside, or a docs/ file that is not there. */
function sourceProblemsOf(text: string, exists = existsSync): string[] {
  const problems = OUTSIDE.filter((re) => re.test(text)).map((re) => `names a document outside (${re})`)
  for (const [doc] of text.matchAll(/\bdocs\/[\w-]+\.md\b/g)) {
    if (!exists(join(ROOT, doc))) problems.push(`${doc} does not exist`)
  }
  return problems
}
const LINK = /\[[^\]]*\]\(([^)\s]+)\)/g

const withoutCode = (markdown: string) => markdown.replace(/^```[^]*?^```/gm, '')

/** GitHub's heading anchors: lower case, punctuation dropped except - and _, spaces to hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>()
  for (const [, heading] of withoutCode(markdown).matchAll(/^#{1,6}\s+(.+)$/gm)) {
    anchors.add(
      (heading ?? '')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    )
  }
  return anchors
}

/** What is wrong with one markdown file's links and references. */
function problemsOf(file: string, markdown: string, exists = existsSync): string[] {
  const problems: string[] = []
  for (const re of OUTSIDE)
    if (re.test(markdown)) problems.push(`names a document outside the repository (${re})`)
  for (const [, target] of withoutCode(markdown).matchAll(LINK)) {
    if (target === undefined || /^(https?|mailto):/.test(target)) continue
    const [path = '', anchor] = target.split('#')
    const resolved = path === '' ? file : resolve(dirname(file), path)
    if (relative(ROOT, resolved).startsWith('..')) {
      problems.push(`${target} leaves the repository`)
      continue
    }
    if (!exists(resolved)) {
      problems.push(`${target} does not exist`)
      continue
    }
    if (anchor && resolved.endsWith('.md') && !anchorsOf(readFileSync(resolved, 'utf8')).has(anchor)) {
      problems.push(`${target}: no such heading`)
    }
  }
  return problems
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return markdownFiles(path)
    return name.endsWith('.md') ? [path] : []
  })
}

t.test('the README and docs link only inside the repository, to files and headings that exist', async (t) => {
  const files = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))]
  t.ok(files.length > 5, `${files.length} files read`)
  t.ok(
    files.some((f) => f.endsWith('docs/api.md')),
    'the public API is documented in the repository',
  )
  t.ok(
    files.some((f) => f.endsWith('docs/upstream.md')),
    'and the upstream facts it depends on',
  )
  for (const file of files) {
    t.same(problemsOf(file, readFileSync(file, 'utf8')), [], relative(ROOT, file))
  }
})

t.test('source, tests and the client package name only documents of the repository', async (t) => {
  const sources = ['src', 'test', 'packages/client/src'].flatMap(function walk(dir: string): string[] {
    return readdirSync(join(ROOT, dir)).flatMap((name) => {
      const path = join(dir, name)
      if (statSync(join(ROOT, path)).isDirectory()) return walk(path)
      return /\.(ts|js|css|html)$/.test(name) && path !== 'test/docs/self-contained.test.ts' ? [path] : []
    })
  })
  t.ok(sources.length > 50, `${sources.length} files read`)
  for (const path of sources) {
    const text = readFileSync(join(ROOT, path), 'utf8')
    t.same(sourceProblemsOf(text), [], path)
  }
})

t.test('the check itself catches what it is for', async (t) => {
  const file = join(ROOT, 'README.md')
  const outside = problemsOf(file, 'See [the contract](../shared/CONTRACT.md).').join('\n')
  t.match(outside, /names a document outside the repository/)
  t.match(outside, /leaves the repository/)
  t.match(problemsOf(file, 'See [x](docs/missing.md).'), [/does not exist/])
  t.match(problemsOf(file, 'See [x](docs/api.md#no-such-heading).'), [/no such heading/])
  t.same(problemsOf(file, 'See [x](docs/api.md#errors) and [y](https://example.com/../x).'), [])
  t.match(
    sourceProblemsOf('// the rule (CONTRACT.md §9)'),
    [/outside/],
    'a source comment naming the contract',
  )
  t.match(
    sourceProblemsOf('// see docs/nowhere.md'),
    [/does not exist/],
    'a source comment naming a missing doc',
  )
  t.same(sourceProblemsOf('// see docs/api.md, "Errors"'), [])
  t.same(problemsOf(file, '```sh\ncat ../helpers/x\n```'), [], 'code blocks are code, not links')
})
