// The human-readable API documentation, rendered from the OpenAPI document: one self-contained HTML
// page (no script, no CDN: one inline stylesheet allowed by its hash) listing every route with its
// parameters and answers, and an anchor per error code for the problem documents' `type` links.
import { createHash } from 'node:crypto'
import type { CatalogueEntry } from './error-catalogue.js'
import { METHODS, type OpenApiDocument } from './openapi-document.js'

export const DOCS_STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}
code,.path{font-family:ui-monospace,monospace}h2{border-bottom:1px solid #ccd;margin-top:2.5rem}
.route{border:1px solid #dde;border-radius:6px;padding:.5rem 1rem;margin:1rem 0}.method{font-weight:700;margin-right:.5rem}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #dde;padding:.25rem .5rem;text-align:left;vertical-align:top}
:target{background:#fff6d5}`

/** The CSP source that allows exactly DOCS_STYLE. */
export const DOCS_STYLE_HASH = `'sha256-${createHash('sha256').update(DOCS_STYLE).digest('base64')}'`

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

interface Parameter {
  name?: string
  in?: string
  required?: boolean
  description?: string
  schema?: { type?: unknown }
}
interface Response {
  description?: string
  $ref?: string
  'x-error-codes'?: string[]
}

function routeSection(path: string, method: string, op: Record<string, unknown>, ctx: PageContext) {
  const parameters = (op.parameters as Parameter[] | undefined) ?? []
  const body = op.requestBody
    ? `<p>Body: JSON, described in <a href="${ctx.prefix}/openapi.json">openapi.json</a>.</p>`
    : ''
  const params = parameters.length
    ? `<table><tr><th>Parameter</th><th>In</th><th>Required</th><th>Type</th></tr>${parameters
        .map(
          (p) =>
            `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}</td><td>${p.required ? 'yes' : 'no'}</td><td>${escapeHtml(p.schema?.type ?? '')}</td></tr>`,
        )
        .join('')}</table>`
    : ''
  const responses = Object.entries((op.responses as Record<string, Response> | undefined) ?? {})
    .map(([status, r]) => {
      const ref = r.$ref?.split('/').pop()
      const text = ref ? `\`${ref}\`: ${ctx.codes.get(ref)?.meaning ?? ''}` : (r.description ?? '')
      return `<tr><td>${escapeHtml(status)}</td><td>${prose(text, ctx.codes, ctx.errorsHref)}</td></tr>`
    })
    .join('')
  return `<div class="route" id="${escapeHtml(`${method}-${path}`)}"><p><span class="method">${escapeHtml(method.toUpperCase())}</span><span class="path">${escapeHtml(path)}</span> — ${escapeHtml(op.summary ?? '')}</p>${params}${body}<table><tr><th>Status</th><th>Meaning</th></tr>${responses}</table></div>`
}

interface PageContext {
  codes: Map<string, CatalogueEntry>
  prefix: string
  errorsHref: string
}

export function errorsSection(catalogue: CatalogueEntry[], errorsHref: string) {
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
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${DOCS_STYLE}</style></head><body>${body}</body></html>`
}

export function docsPage(doc: OpenApiDocument, catalogue: CatalogueEntry[], prefix: string) {
  const errorsHref = `${prefix}/docs/errors`
  const ctx: PageContext = { codes: new Map(catalogue.map((e) => [e.code, e])), prefix, errorsHref }
  const info = (doc.info ?? {}) as { title?: string; description?: string; version?: string }
  const routes = Object.entries(doc.paths ?? {})
    .flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, op]) => routeSection(path, method, op as Record<string, unknown>, ctx)),
    )
    .join('')
  return page(
    info.title ?? 'API',
    `<h1>${escapeHtml(info.title)} <small>${escapeHtml(info.version)}</small></h1><p>${prose(info.description ?? '', ctx.codes, errorsHref)}</p><p>Machine-readable: <a href="${prefix}/openapi.json">openapi.json</a> (OpenAPI 3.1). Errors: <a href="${errorsHref}">${escapeHtml(errorsHref)}</a>.</p><h2>Routes</h2>${routes}${errorsSection(catalogue, errorsHref)}`,
  )
}

export function errorsPage(title: string, catalogue: CatalogueEntry[], prefix: string) {
  const body = `<p><a href="${prefix}/docs">← API documentation</a></p>${errorsSection(catalogue, `${prefix}/docs/errors`)}`
  return page(`${title}: error codes`, body)
}
