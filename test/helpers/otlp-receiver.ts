// A small OTLP/HTTP receiver (the JSON protocol) on 127.0.0.1, port 0, closed when the test ends:
// it keeps every span posted to /v1/traces, with its service's name.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Test } from 'tap'

export interface ReceivedSpan {
  service: string | undefined
  traceId: string
  spanId: string
  parentSpanId: string | undefined
  name: string
  /** OTLP's SpanKind: 2 server, 3 client. */
  kind: number
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  status: number | undefined
  attributes: Record<string, string | number | boolean | undefined>
}

interface AnyValue {
  stringValue?: string
  intValue?: number | string
  boolValue?: boolean
  doubleValue?: number
}
interface KeyValue {
  key: string
  value: AnyValue
}
interface ExportRequest {
  resourceSpans: Array<{
    resource?: { attributes?: KeyValue[] }
    scopeSpans: Array<{
      spans: Array<{
        traceId: string
        spanId: string
        parentSpanId?: string
        name: string
        kind: number
        status?: { code?: number }
        attributes?: KeyValue[]
      }>
    }>
  }>
}

const valueOf = (v: AnyValue) =>
  v.stringValue ?? (v.intValue === undefined ? undefined : Number(v.intValue)) ?? v.boolValue ?? v.doubleValue
const attributesOf = (kvs: KeyValue[] = []) =>
  Object.fromEntries(kvs.map((kv) => [kv.key, valueOf(kv.value)]))

export async function startOtlpReceiver(t: Test) {
  const spans: ReceivedSpan[] = []
  const contentTypes: string[] = []
  const server = http.createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (body += chunk))
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end()
        return
      }
      contentTypes.push(String(req.headers['content-type']))
      const request = JSON.parse(body) as ExportRequest
      for (const { resource, scopeSpans } of request.resourceSpans) {
        const service = attributesOf(resource?.attributes)['service.name']
        for (const { spans: list } of scopeSpans) {
          for (const s of list) {
            spans.push({
              service: typeof service === 'string' ? service : undefined,
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId || undefined,
              name: s.name,
              kind: s.kind,
              status: s.status?.code,
              attributes: attributesOf(s.attributes),
            })
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, spans, contentTypes }
}
