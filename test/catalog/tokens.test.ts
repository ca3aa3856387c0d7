import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import t from 'tap'
import { startGateway } from '../helpers/gateway.js'
import { assertProblem } from '../helpers/problem.js'
import { upstreamCatalog } from './support.js'

const TOKENS = '/api/v1/tokens'

t.test('the catalog is the upstream body byte for byte, with the cache headers', async (t) => {
  const { app, sandbox } = await startGateway(t)
  const upstream = await upstreamCatalog(sandbox.url)
  const res = await app.inject(TOKENS)
  t.equal(res.statusCode, 200)
  t.ok(res.rawPayload.equals(upstream.raw), 'identical bytes')
  t.same(res.json(), upstream.tokens, 'same objects, same order')
  t.ok(upstream.tokens.length > 2000, 'the full catalog')
  t.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  t.equal(res.headers['cache-control'], 'public, max-age=60, stale-while-revalidate=300')
  t.match(res.headers.vary, /Accept-Encoding/)
  t.match(res.headers.etag, /^"[\w-]+"$/, 'a strong ETag')
  t.equal(res.headers['x-cache-status'], 'HIT', 'loaded at start-up')
  t.notOk(res.headers['content-encoding'], 'identity when the client asks for no coding')
})

t.test('HEAD gives the same headers and no body', async (t) => {
  const { app } = await startGateway(t)
  const get = await app.inject({ url: TOKENS, headers: { 'accept-encoding': 'br' } })
  const head = await app.inject({ method: 'HEAD', url: TOKENS, headers: { 'accept-encoding': 'br' } })
  t.equal(head.statusCode, 200)
  t.equal(head.rawPayload.length, 0)
  for (const name of ['etag', 'content-encoding', 'content-type', 'cache-control', 'x-cache-status']) {
    t.equal(head.headers[name], get.headers[name], name)
  }
})

t.test('br and gzip bodies decode to the same JSON, compressed once per catalog version', async (t) => {
  const { app, sandbox } = await startGateway(t)
  const upstream = await upstreamCatalog(sandbox.url)
  const br = await app.inject({ url: TOKENS, headers: { 'accept-encoding': 'gzip, deflate, br' } })
  t.equal(br.headers['content-encoding'], 'br', 'br preferred when both are accepted')
  t.ok(br.rawPayload.length < upstream.raw.length / 4, 'compressed')
  t.ok(brotliDecompressSync(br.rawPayload).equals(upstream.raw))
  const gzip = await app.inject({ url: TOKENS, headers: { 'accept-encoding': 'gzip' } })
  t.equal(gzip.headers['content-encoding'], 'gzip')
  t.ok(gunzipSync(gzip.rawPayload).equals(upstream.raw))
  const weighted = await app.inject({ url: TOKENS, headers: { 'accept-encoding': 'br;q=0.5, gzip;q=0.8' } })
  t.equal(weighted.headers['content-encoding'], 'gzip', 'q-values honoured')
  const refused = await app.inject({ url: TOKENS, headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } })
  t.notOk(refused.headers['content-encoding'], 'identity when every coding is refused')
  t.equal(
    new Set([br.headers.etag, gzip.headers.etag, refused.headers.etag]).size,
    3,
    'one strong ETag per coding',
  )

  const before = app.catalog.stats()
  for (let i = 0; i < 30; i++) {
    for (const coding of ['br', 'gzip', 'identity']) {
      const res = await app.inject({ url: TOKENS, headers: { 'accept-encoding': coding } })
      t.equal(res.statusCode, 200)
    }
  }
  const after = app.catalog.stats()
  t.equal(before.compressions, 2, 'br and gzip made when the version was loaded')
  t.equal(after.compressions, 2, 'and never again for 90 requests')
  t.equal(after.serializations, 0, 'the full catalog is never re-serialised')
})

t.test('a standard client over a real socket decodes either coding to the upstream JSON', async (t) => {
  const { url, sandbox } = await startGateway(t, { listen: true })
  const upstream = await upstreamCatalog(sandbox.url)
  for (const coding of ['br', 'gzip']) {
    const res = await fetch(`${url}${TOKENS}`, { headers: { 'accept-encoding': coding } })
    t.equal(res.headers.get('content-encoding'), coding)
    t.same(await res.json(), upstream.tokens, `${coding} decodes to the same JSON`)
  }
})

t.test('If-None-Match with the current ETag gets 304 and no body, per coding', async (t) => {
  const { app } = await startGateway(t)
  for (const coding of ['br', 'gzip', 'identity']) {
    const first = await app.inject({ url: TOKENS, headers: { 'accept-encoding': coding } })
    const etag = String(first.headers.etag)
    const again = await app.inject({
      url: TOKENS,
      headers: { 'accept-encoding': coding, 'if-none-match': etag },
    })
    t.equal(again.statusCode, 304, `304 for ${coding}`)
    t.equal(again.rawPayload.length, 0, 'no body')
    t.equal(again.headers.etag, etag)
    t.equal(again.headers['cache-control'], first.headers['cache-control'])
    t.match(again.headers.vary, /Accept-Encoding/)
    t.equal(again.headers['x-cache-status'], 'HIT')
  }
  const br = String((await app.inject({ url: TOKENS, headers: { 'accept-encoding': 'br' } })).headers.etag)
  for (const header of [`W/${br}`, `"other", ${br}`, '*']) {
    const res = await app.inject({
      url: TOKENS,
      headers: { 'accept-encoding': 'br', 'if-none-match': header },
    })
    t.equal(res.statusCode, 304, `matches ${header}`)
  }
  const otherCoding = await app.inject({
    url: TOKENS,
    headers: { 'accept-encoding': 'gzip', 'if-none-match': br },
  })
  t.equal(otherCoding.statusCode, 200, 'the br tag does not validate the gzip bytes')
  const stale = await app.inject({ url: TOKENS, headers: { 'if-none-match': '"an-old-version"' } })
  t.equal(stale.statusCode, 200)
})

t.test('one token by id: the upstream object, with its own ETag', async (t) => {
  const { app, sandbox } = await startGateway(t)
  const { tokens } = await upstreamCatalog(sandbox.url)
  const token = tokens[17]!
  const res = await app.inject(`${TOKENS}/${token.id}`)
  t.equal(res.statusCode, 200)
  t.same(res.json(), token)
  t.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  t.equal(res.headers['cache-control'], 'public, max-age=60, stale-while-revalidate=300')
  const again = await app.inject({
    url: `${TOKENS}/${token.id}`,
    headers: { 'if-none-match': String(res.headers.etag) },
  })
  t.equal(again.statusCode, 304)
})

t.test(
  'a token id that is not a positive integer is VALIDATION_FAILED; an unknown one TOKEN_NOT_FOUND',
  async (t) => {
    const { app, sandbox } = await startGateway(t)
    for (const id of ['abc', '1.5', '-3', '0', '1e3', '12345678901234567', '2147483648']) {
      const res = await app.inject(`${TOKENS}/${id}`)
      const body = assertProblem(t, res, 'VALIDATION_FAILED')
      t.match(body.errors, [{ path: 'path.id' }], `"${id}" named as the bad field`)
    }
    const { tokens } = await upstreamCatalog(sandbox.url)
    const unknown = Math.max(...tokens.map((tk) => tk.id)) + 1000
    const body = assertProblem(t, await app.inject(`${TOKENS}/${unknown}`), 'TOKEN_NOT_FOUND')
    t.equal(body.tokenId, unknown)
  },
)

t.test('chains: each blockchain object once, in first-seen order', async (t) => {
  const { app, sandbox } = await startGateway(t)
  const { tokens } = await upstreamCatalog(sandbox.url)
  const seen = new Map<number, unknown>()
  for (const tk of tokens) if (!seen.has(tk.blockchain.id)) seen.set(tk.blockchain.id, tk.blockchain)
  const res = await app.inject({ url: '/api/v1/chains', headers: { 'accept-encoding': 'gzip' } })
  t.equal(res.statusCode, 200)
  const chains = JSON.parse(gunzipSync(res.rawPayload).toString('utf8'))
  t.same(chains, [...seen.values()])
  t.equal(chains.length, 18, 'the upstream spec: 18 chains')
  t.match(res.headers.etag, /^"[\w-]+"$/)
  t.equal(res.headers['x-cache-status'], 'HIT')
})
