// What makes Swagger UI's reference page accessible and usable on a phone, through the options it
// offers: a style sheet of its theme (colours with a 4.5:1 contrast, a narrow layout) and a plugin of
// its own kind (wrapComponents), which @fastify/swagger-ui writes into the page's initializer script.

/** Swagger UI's colours darkened to a contrast of at least 4.5:1 on their backgrounds, and a 375 px layout. */
export const REFERENCE_CSS = `
.swagger-ui .info .title small { background: #5c6370; }
.swagger-ui .info .title small.version-stamp { background: #3d6b00; }
.swagger-ui .info a, .swagger-ui .info .url, .swagger-ui .info__extdocs,
.swagger-ui a.nostyle, .swagger-ui .markdown a, .swagger-ui .renderedMarkdown a { color: #1f5fae; }
.swagger-ui .btn.authorize { color: #17704a; border-color: #17704a; }
.swagger-ui .btn.authorize svg { fill: #17704a; }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1f63b4; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #17704a; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #9a5200; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #c0262b; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #0f6e5c; }
.swagger-ui .opblock.opblock-get .tab-header .tab-item.active h4 span:after { background: #1f63b4; }
.swagger-ui .json-schema-2020-12-expand-deep-button { color: #4f5459; }
.swagger-ui .json-schema-2020-12__attribute--muted,
.swagger-ui .json-schema-2020-12-keyword__name--secondary,
.swagger-ui .json-schema-2020-12-keyword__value--secondary { color: #5b6166; }
.swagger-ui .json-schema-2020-12__constraint { background: #6b33cc; color: #fff; }
.swagger-ui .json-schema-2020-12__constraint--string { background: #7a5200; color: #fff; }
.swagger-ui .opblock-summary-operation-id, .swagger-ui .opblock .opblock-summary-description { color: #3b4151; }
.swagger-ui .parameter__in, .swagger-ui .parameter__type, .swagger-ui .prop-format { color: #4f5459; }
.swagger-ui .parameter__name.required:after, .swagger-ui .parameter__name.required span { color: #b3141b; }
.swagger-ui .response-col_links { color: #4f5459; }
.swagger-ui .opblock-tag small { color: #3b4151; }

.swagger-ui .reference-hidden {
  position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap;
}
.swagger-ui .opblock .opblock-section-header .try-out__btn.cancel { color: #b3141b; border-color: #b3141b; }
.swagger-ui .btn.execute { background: #1f63b4; border-color: #1f63b4; }
/* The JSON highlighter's string colour, written inline, lightened to 4.5:1 on its dark background. */
.swagger-ui .microlight span[style*="211, 99, 99"], .swagger-ui .microlight span[style*="d36363"] { color: #f08080 !important; }

@media (max-width: 600px) {
  .swagger-ui .wrapper { padding: 0 12px; }
  .swagger-ui .info { margin: 24px 0; }
  .swagger-ui .info .title { font-size: 28px; }
  .swagger-ui .scheme-container { padding: 16px 0; }
  .swagger-ui .scheme-container .schemes { flex-direction: column; align-items: stretch; gap: 12px; }
  .swagger-ui .servers > label select { max-width: 100%; min-width: 0; width: 100%; }
  .swagger-ui .opblock-tag { font-size: 20px; padding: 10px 4px; }
  .swagger-ui .opblock-tag small { display: none; }
  .swagger-ui .opblock .opblock-summary { flex-wrap: wrap; }
  .swagger-ui .opblock .opblock-summary-control { flex-wrap: wrap; gap: 4px; }
  .swagger-ui .opblock .opblock-summary-path { max-width: 100%; word-break: break-all; }
  .swagger-ui .opblock .opblock-summary-description { flex-basis: 100%; }
  .swagger-ui .opblock-summary-operation-id { display: none; }
  .swagger-ui .opblock .opblock-section-header { flex-wrap: wrap; }
  .swagger-ui table { display: block; overflow-x: auto; }
  .swagger-ui table.parameters thead { display: none; }
  .swagger-ui table.parameters tr, .swagger-ui table.parameters td { display: block; width: 100%; }
  .swagger-ui .parameters-col_description input, .swagger-ui .parameters-col_description select { width: 100%; max-width: 100%; }
  .swagger-ui .highlight-code, .swagger-ui .microlight { max-width: calc(100vw - 48px); overflow-x: auto; }
}
`

/** The viewport a phone needs to lay the page out at its own width rather than shrink a desktop page. */
export const VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">'

/** The page's HTML (the plugin's template) with the viewport declared. */
export const withViewport = (html: string) =>
  html.replace('<meta charset="UTF-8">', `<meta charset="UTF-8">${VIEWPORT}`)

interface ReactLike {
  createElement(type: unknown, props: Record<string, unknown> | null, ...children: unknown[]): unknown
  useEffect(effect: () => void): void
}

/**
 * A Swagger UI plugin. It runs in the browser from its source text (@fastify/swagger-ui serializes
 * functions into the page's script), so it refers to nothing outside itself.
 * - An operation's summary is one button; the path inside it was also a link (a deep link), an
 *   interactive element inside another that assistive technology cannot reach: it is plain text
 *   (deep linking itself, the address following what is open, stays on).
 * - The server select sat in an empty label: it is named after the block's visible title.
 * - The selects of examples and of boolean and enum parameters, and the request body's text area,
 *   had no name: each is wrapped in a label whose text (the parameter's name, "Example", "Request
 *   body") screen readers read and the eye does not see.
 */
export function accessibleReference(system: { React: ReactLike }) {
  const h = system.React.createElement
  type Page = { querySelector(selector: string): { setAttribute(name: string, value: string): void } | null }
  type Props = Record<string, unknown>
  const named = (name: (props: Props) => unknown) => (Original: unknown) => (props: Props) =>
    h(
      'label',
      { className: 'reference-named' },
      h('span', { className: 'reference-hidden' }, name(props)),
      h(Original, props),
    )
  return {
    wrapComponents: {
      DeepLink: () => (props: { text: unknown }) => h('span', null, props.text),
      Servers: (Original: unknown) =>
        function NamedServers(props: Props) {
          system.React.useEffect(() => {
            const page = (globalThis as unknown as { document: Page }).document
            page.querySelector('select#servers')?.setAttribute('aria-label', 'Server')
          })
          return h(Original, props)
        },
      ExamplesSelect: named(() => 'Example'),
      JsonSchema_boolean: named((props) => props.description),
      JsonSchema_string: named((props) => props.description),
      TextArea: named((props) => props.placeholder || 'Request body'),
    },
  }
}
