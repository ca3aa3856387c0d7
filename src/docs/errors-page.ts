// The error codes page: one self-contained HTML page (no script, no CDN: one inline stylesheet allowed
// by its hash) with an anchor per code, where the problem documents' `type` links point. On a phone
// each code's row is a card of its own, so the page is never wider than the screen.
import { createHash } from 'node:crypto'
import type { CatalogueEntry } from './error-catalogue.js'

export const ERRORS_STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}
code{font-family:ui-monospace,monospace}h2{border-bottom:1px solid #ccd;margin-top:2.5rem}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #dde;padding:.25rem .5rem;text-align:left;vertical-align:top}
:target{background:#fff6d5}
@media (max-width:40rem){table,tbody,tr,td{display:block}tr:first-child{display:none}tr{border:1px solid #dde;margin-bottom:.75rem}td{border:0;padding:.15rem .5rem}td:first-child{font-weight:700;overflow-wrap:anywhere}td:nth-child(4){font-weight:600}td:nth-child(2)::before{content:"status "}td:nth-child(3)::before{content:"retryable "}}`

/** The CSP source that allows exactly ERRORS_STYLE. */
export const ERRORS_STYLE_HASH = `'sha256-${createHash('sha256').update(ERRORS_STYLE).digest('base64')}'`

const escapeHtml = (text: unknown) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** `code` spans and bare codes become links to their catalogue anchor. */
function prose(text: string, codes: Map<string, CatalogueEntry>, errorsHref: string) {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\b[A-Z]+(?:_[A-Z]+)+\b/g, (code) => {
      const entry = codes.get(code)
      return entry ? `<a href="${errorsHref}#${entry.slug}">${code}</a>` : code
    })
}

function errorsSection(catalogue: CatalogueEntry[], errorsHref: string) {
  const codes = new Map(catalogue.map((e) => [e.code, e]))
  const rows = catalogue
    .map(
      (e) =>
        `<tr id="${e.slug}"><td><code>${e.code}</code></td><td>${e.status}</td><td>${e.retryable ? 'yes' : 'no'}</td><td>${escapeHtml(e.title)}</td><td>${prose(e.meaning, codes, errorsHref)}</td></tr>`,
    )
    .join('')
  return `<h2 id="errors">Error codes</h2><p>Every error is an <code>application/problem+json</code> document with <code>type</code>, <code>title</code>, <code>status</code>, <code>code</code>, <code>detail</code>, <code>retryable</code> and <code>requestId</code>. Branch on <code>code</code>.</p><table><tr><th>code</th><th>status</th><th>retryable</th><th>title</th><th>meaning</th></tr>${rows}</table>`
}

function page(title: string, body: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${ERRORS_STYLE}</style></head><body>${body}</body></html>`
}

export function errorsPage(title: string, catalogue: CatalogueEntry[], prefix: string) {
  const body = `<p><a href="${prefix}/docs">← API reference</a> · <a href="${prefix}/openapi.json">openapi.json</a></p>${errorsSection(catalogue, `${prefix}/docs/errors`)}`
  return page(`${title}: error codes`, body)
}
