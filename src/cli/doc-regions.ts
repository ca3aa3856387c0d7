// The tables of docs/ that are generated, each between `<!-- NAME:begin -->` and `<!-- NAME:end -->`:
// the settings from src/config/settings.ts and envSchema, the error codes from src/errors.ts. Written by
// `npm run docs:tables`; test/docs/tables.test.ts fails when a file differs from what this renders.
import { type SettingRow, settingRows } from '../config/rows.js'
import { errorCatalogue } from '../docs/error-catalogue.js'

export interface Region {
  /** Relative to the repository's root. */
  file: string
  name: string
  body: () => string
}

const cell = (text: string) => text.replaceAll('|', '\\|')

const table = (head: string[], rows: string[][]) =>
  [head, head.map(() => '---'), ...rows].map((r) => `| ${r.map(cell).join(' | ')} |`).join('\n')

const settingsTable = (rows: SettingRow[]) =>
  table(
    ['Variable', 'Default', 'Meaning'],
    rows.map((r) => [`\`${r.variable}\``, r.default, r.meaning]),
  )

const codesTable = () =>
  table(
    ['code', 'status', 'retryable', 'meaning'],
    errorCatalogue()
      .sort((a, b) => a.status - b.status)
      .map((e) => [`\`${e.code}\``, String(e.status), e.retryable ? 'yes' : 'no', e.meaning]),
  )

/** A table of the settings `pick` keeps, in a region `settings:<what>` of the file (`settings` for all). */
const settingsRegion = (file: string, what: string, pick: (row: SettingRow) => boolean): Region => ({
  file,
  name: what === '' ? 'settings' : `settings:${what}`,
  body: () => settingsTable(settingRows().filter(pick)),
})

export const REGIONS: Region[] = [
  settingsRegion('docs/configuration.md', '', () => true),
  settingsRegion('docs/api.md', 'frontend', (r) => r.frontend === true),
  settingsRegion('docs/api.md', 'live-quote', (r) => r.variable.startsWith('QUOTE_')),
  settingsRegion('docs/catalog.md', 'catalog', (r) => r.variable.startsWith('CATALOG_')),
  settingsRegion('docs/operations.md', 'tracing', (r) => r.variable.startsWith('OTEL_')),
  settingsRegion('docs/notifications.md', 'watch', (r) => r.variable.startsWith('WATCH_')),
  settingsRegion('docs/notifications.md', 'webhooks', (r) => r.variable.startsWith('WEBHOOK_')),
  settingsRegion('docs/notifications.md', 'push', (r) => r.variable.startsWith('WEB_PUSH_')),
  settingsRegion('docs/api.md', 'wallet', (r) => r.variable.startsWith('WALLET_')),
  { file: 'docs/api.md', name: 'error-codes', body: codesTable },
]

const markers = (name: string) => [`<!-- ${name}:begin -->`, `<!-- ${name}:end -->`] as const

/** The region's current text in a document, or undefined when its markers are missing. */
export function regionIn(text: string, name: string): string | undefined {
  const [begin, end] = markers(name)
  const from = text.indexOf(begin)
  const to = text.indexOf(end, from)
  return from < 0 || to < 0 ? undefined : text.slice(from + begin.length, to).trim()
}

/** The document with the region's text replaced (its markers must be there). */
export function withRegion(text: string, name: string, body: string): string {
  const [begin, end] = markers(name)
  if (regionIn(text, name) === undefined) throw new Error(`no ${begin} … ${end} markers`)
  const from = text.indexOf(begin) + begin.length
  return `${text.slice(0, from)}\n\n${body}\n\n${text.slice(text.indexOf(end, from))}`
}
