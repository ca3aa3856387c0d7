// The security sweep: path traversal and encoded slashes, CR/LF and oversized heads, bodies over the
// limit, foreign Origins, tampered, foreign-secret and revoked cookies, and 300 slow-loris
// connections, all against one gateway whose every answer and log line is then searched for the
// secrets it handled: the tenant key, the upstream's tokens, session cookies and tokens, signatures.
import t from 'tap'
import { buildApp } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { Client, PUBLIC_ORIGIN } from '../auth/client.js'
import { signInThroughGateway } from '../helpers/sign-in.js'
import { newWallet } from '../helpers/wallet.js'
import { type RawAnswer, rawConnection, rawExchange } from '../edge/raw-http.js'
import { TEST_TENANT_KEY } from '../helpers/gateway.js'
import { logSink } from '../helpers/logs.js'
import { assertProblem } from '../helpers/problem.js'
import { reliableGateway } from './setup.js'

// 300 slow connections and a second gateway: more than tap's per-file limit.
t.setTimeout(180_000)

const HEADERS_TIMEOUT_MS = 1_000
/** How far past HEADERS_TIMEOUT_MS a slow client may still be connected on a loaded machine. */
const CLOSE_MARGIN_MS = 2_000
const SLOW_CLIENTS = 300
const CLIENT_IP = 'x-client-ip'

t.test('the security sweep', async (t) => {
  const gw = await reliableGateway(t, {
    env: {
      HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      REQUEST_TIMEOUT_MS: '2000',
      // Each signed-out caller below names its own address, as a proxy in front would.
      CLIENT_IP_HEADER: CLIENT_IP,
    },
  })
  const { control } = gw
  /** Every secret the gateway handled, found along the way. */
  const secrets = new Set<string>([TEST_TENANT_KEY])
  /** Answers the client legitimately receives its own session in (sign-in, refresh). */
  const sessionSecrets = new Set<string>()
  const raw: RawAnswer[] = []
  const exchange = async (bytes: string | Buffer) => {
    const answer = await rawExchange(gw.url, bytes)
    raw.push(answer)
    return answer
  }
  // The catalog's reloads, and the watch following the orders made below on its own (reads and
  // streams of one order by uuid), are no client's request.
  const OWN = new Set(['GET /v1/tokens', 'GET /v1/orders/:uuid', 'GET /orders/:orderUUID/status-stream'])
  const upstreamSince = (mark: number) =>
    control.requests.slice(mark).filter((r) => r.route === null || !OWN.has(r.route))

  const browser = new Client(gw.url)
  const wallet = newWallet()
  const signed = await signInThroughGateway(browser, wallet)
  t.equal(signed.verify.status, 201, 'a browser signs in')
  secrets.add(signed.signature)
  const cookie = browser.cookies.get('session') ?? ''
  sessionSecrets.add(cookie)
  const { sessionToken } = await gw.signedIn()
  sessionSecrets.add(sessionToken)

  await t.test('traversal and encoded slashes never change the upstream path', async (t) => {
    const mark = control.requests.length
    const uuid = control.orders()[0]?.uuid ?? '3b241101-e2bb-4255-8caf-4136c566a962'
    const paths = [
      '/api/v1/orders/..%2F..%2Fv1%2Ftokens',
      '/api/v1/orders/%2e%2e%2fcreate',
      `/api/v1/orders/${uuid}%2F..%2F..%2Fauth%2Fme`,
      `/api/orders/${uuid}%2f..%2f..%2fv1%2forders/status-stream`,
      '/api/v1/tokens/..%2F..%2Fauth%2Fme',
      '/api/v1/tokens/2%2F..%2F3',
      '/api/v1/orders/..;/create',
      '/api/v1/tokens/%252e%252e%252f',
    ]
    for (const path of paths) {
      const res = await gw.call(path, { headers: { authorization: `Bearer ${sessionToken}` } })
      t.ok(res.statusCode >= 400 && res.statusCode < 500, `${path}: ${res.statusCode}`)
      t.match(String(res.headers['content-type']), /^application\/problem\+json/)
    }
    // Dot segments as sent: a URL library (and a browser) would resolve them before sending.
    for (const target of ['/api/v1/../v1/orders', '/api/%2e%2e/api/v1/orders', '/api/v1/orders/./..']) {
      const answer = await exchange(
        `GET ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${sessionToken}\r\nConnection: close\r\n\r\n`,
      )
      t.ok(answer.statusCode >= 400 && answer.statusCode < 500, `${target} as sent: ${answer.statusCode}`)
    }
    const reached = upstreamSince(mark)
    t.same(
      reached.map((r) => r.path),
      [],
      'no traversal reached the upstream',
    )
  })

  await t.test(
    "the reference page's static files: encoded dot-segments, backslashes, NUL bytes",
    async (t) => {
      const internals = async () => {
        const text = await gw.app.metrics.registry.getSingleMetricAsString('gateway_http_problems_total')
        return text
          .split('\n')
          .filter((l) => l.includes('code="INTERNAL"'))
          .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0)
      }
      const internalBefore = await internals()
      const logMark = gw.logs.lines().length
      const targets = [
        '%2e',
        '%2e%2e',
        '%2e%2e/package.json',
        '%2e%2e%2fpackage.json',
        '..%5c..%5cpackage.json',
        '%2e%2e%5c%2e%2e%5cpackage.json',
        'index.html%00',
        '%00',
        'swagger-ui.css%00.map',
      ]
      for (const target of targets) {
        const answer = await exchange(
          `GET /api/docs/static/${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
        )
        t.equal(answer.statusCode, 404, `${target}: 404`)
        assertProblem(t, answer, 'NOT_FOUND')
        t.notMatch(answer.body, /package|"name"|stack|FST_/, `${target}: nothing of the file or the plugin`)
      }
      // What the static-file server refuses besides paths: a range or a precondition it cannot meet.
      for (const header of ['Range: bytes=999999999-', 'If-Match: "not-this-one"']) {
        const answer = await exchange(
          `GET /api/docs/static/swagger-ui.css HTTP/1.1\r\nHost: x\r\n${header}\r\nConnection: close\r\n\r\n`,
        )
        assertProblem(t, answer, 'VALIDATION_FAILED')
      }
      const logged = gw.logs.lines().slice(logMark)
      t.same(
        logged.filter((l) => Number(l.level) >= 50 || 'err' in l).map((l) => l.msg),
        [],
        'no error-level line and no stack',
      )
      t.equal(await internals(), internalBefore, 'the INTERNAL counter is unchanged')
    },
  )

  await t.test('CR and LF in a request, and oversized heads, are refused as problems', async (t) => {
    const mark = control.requests.length
    const splitting = await gw.call('/api/v1/tokens/2?x=%0d%0aSet-Cookie:%20evil=1', {
      headers: { 'x-request-id': 'a%0d%0aSet-Cookie:%20evil=1' },
    })
    t.notOk(JSON.stringify(splitting.headers).includes('evil'), 'nothing is injected into the answer head')
    const bareLf = await exchange(
      'GET /api/v1/chains HTTP/1.1\r\nHost: x\r\nX-A: 1\nSet-Cookie: evil=1\r\n\r\n',
    )
    const bareCr = await exchange(
      'GET /api/v1/chains HTTP/1.1\r\nHost: x\r\nX-A: 1\rSet-Cookie: evil=1\r\n\r\n',
    )
    const inLine = await exchange('GET /api/v1/chains\rSet-Cookie: evil=1 HTTP/1.1\r\nHost: x\r\n\r\n')
    for (const [name, answer] of [
      ['a bare LF in a header', bareLf],
      ['a bare CR in a header', bareCr],
      ['a bare CR inside the request target', inLine],
    ] as const) {
      t.notMatch(answer.headers['set-cookie'] ?? '', /evil/, `${name}: no injected header`)
      if (answer.statusCode) assertProblem(t, answer, 'VALIDATION_FAILED')
      else t.pass(`${name}: closed without an answer`)
    }
    const huge = await exchange(
      `GET /api/v1/chains HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`,
    )
    assertProblem(t, huge, 'HEADERS_TOO_LARGE')
    const longUrl = await gw.call(`/api/v1/tokens?q=${'a'.repeat(20_000)}`)
    t.ok([414, 431].includes(longUrl.statusCode), `a 20 kB URL is refused (${longUrl.statusCode})`)
    t.match(String(longUrl.headers['content-type']), /^application\/problem\+json/)
    t.same(upstreamSince(mark), [], 'none of them reached the upstream')
  })

  await t.test('bodies over the limit are refused before the upstream', async (t) => {
    const mark = control.requests.length
    const big = { ...gw.order(), padding: 'x'.repeat(70 * 1024) }
    assertProblem(t, await gw.call('/api/v1/orders/create', { body: big }), 'PAYLOAD_TOO_LARGE')
    const chunked = await exchange(
      'POST /api/v1/orders/create HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n' +
        `${(70 * 1024).toString(16)}\r\n${'x'.repeat(70 * 1024)}\r\n0\r\n\r\n`,
    )
    assertProblem(t, chunked, 'PAYLOAD_TOO_LARGE')
    t.same(upstreamSince(mark), [], 'no create reached the upstream')
  })

  await t.test("one signed-out client's Idempotency-Key is no other client's", async (t) => {
    const create = (ip: string, body: object) =>
      gw.call('/api/v1/orders/create', {
        body,
        headers: { 'idempotency-key': 'shared-key', [CLIENT_IP]: ip },
      })
    const first = await create('198.51.100.7', gw.order())
    t.equal(first.statusCode, 201, 'the first client creates its order')
    const order = JSON.parse(first.body) as { uuid: string; walletAddress: string }
    const other = await create('203.0.113.9', gw.order())
    t.equal(other.statusCode, 201, 'another client with the same key and body gets an order')
    t.notOk(other.headers['idempotent-replayed'], 'not a replay')
    const theirs = JSON.parse(other.body) as { uuid: string; walletAddress: string }
    t.not(theirs.uuid, order.uuid, 'its own order')
    t.notOk(other.body.includes(order.walletAddress), "and not the first client's deposit address")
    const third = await create('192.0.2.44', { ...gw.order(), intendedAmount: 55 })
    t.equal(third.statusCode, 201, 'a different body from a third client: no sign the key is in use')
    const again = await create('198.51.100.7', gw.order())
    t.equal(again.headers['idempotent-replayed'], 'true', 'the first client still replays its own')
    t.equal((JSON.parse(again.body) as { uuid: string }).uuid, order.uuid)
    // An IPv6 client is its /64, as the rate limits count it.
    const v6 = await create('2001:db8:1:2::1', gw.order())
    const sameNetwork = await create('2001:db8:1:2::99', gw.order())
    t.equal(sameNetwork.headers['idempotent-replayed'], 'true', 'one /64 is one client')
    t.equal(sameNetwork.body, v6.body)
  })

  await t.test('foreign Origins never reach the upstream; allowed ones are not forwarded', async (t) => {
    const mark = control.requests.length
    const routes = [
      `/api/v1/tokens/quote?depositTokenId=${gw.p.usdtEth.id}&settleTokenId=${gw.p.eth.id}&amount=1&amountIsDeposit=true`,
      `/api/v1/tokens/swap-limits?depositTokenId=${gw.p.usdtEth.id}&settleTokenId=${gw.p.eth.id}`,
      '/api/v1/orders',
      '/api/auth/siwx/challenge',
      '/api/auth/me',
    ]
    for (const origin of ['https://evil.example', 'null', 'http://localhost:3000.evil.example']) {
      for (const path of routes) {
        assertProblem(
          t,
          await gw.call(path, { headers: { origin, authorization: `Bearer ${sessionToken}` } }),
          'ORIGIN_NOT_ALLOWED',
        )
      }
      assertProblem(
        t,
        await gw.call('/api/v1/orders/create', { headers: { origin }, body: gw.order() }),
        'ORIGIN_NOT_ALLOWED',
      )
    }
    t.same(upstreamSince(mark), [], 'nothing reached the upstream')
    await browser.get(routes[0] ?? '', { headers: { referer: `${PUBLIC_ORIGIN}/page` } })
    const forwarded = upstreamSince(mark)
    t.equal(forwarded.length, 1, 'the allowed origin is served')
    for (const header of ['origin', 'referer', 'cookie']) {
      t.equal(forwarded[0]?.headers[header], undefined, `the client's ${header} is not forwarded`)
    }
  })

  await t.test('tampered, foreign-secret and revoked cookies are no session', async (t) => {
    const asCookie = (value: string) => ({ cookie: `session=${value}` })
    const sessionOf = async (value: string) =>
      JSON.parse((await gw.call('/api/auth/session', { headers: asCookie(value) })).body) as {
        signedIn: boolean
      }
    t.equal((await sessionOf(cookie)).signedIn, true, 'the genuine cookie is a session')
    const flip = (s: string, at: number) => s.slice(0, at) + (s[at] === 'A' ? 'B' : 'A') + s.slice(at + 1)
    for (const at of [10, Math.floor(cookie.length / 2), cookie.length - 3]) {
      t.equal((await sessionOf(flip(cookie, at))).signedIn, false, `tampered at ${at}: no session`)
      assertProblem(
        t,
        await gw.call('/api/auth/me', { headers: asCookie(flip(cookie, at)) }),
        'AUTH_REQUIRED',
      )
    }

    // A gateway with another secret, in front of the same upstream, seals a cookie ours cannot open.
    const foreignLogs = logSink()
    const foreign = await buildApp(
      loadConfig({
        NODE_ENV: 'test',
        UPSTREAM_URL: gw.sandbox.url,
        TENANT_API_KEY: TEST_TENANT_KEY,
        SESSION_SECRET: 'another-gateway-secret-0123456789-abcdefgh',
        PUBLIC_ORIGIN,
        METRICS_PORT: '0',
      }),
      { logStream: foreignLogs.stream },
    )
    t.teardown(() => foreign.close())
    const foreignUrl = await foreign.listen({ port: 0, host: '127.0.0.1' })
    const elsewhere = new Client(foreignUrl)
    await signInThroughGateway(elsewhere, newWallet())
    const foreignCookie = elsewhere.cookies.get('session') ?? ''
    t.ok(foreignCookie, 'the other gateway issued a cookie')
    t.equal(
      (await sessionOf(foreignCookie)).signedIn,
      false,
      'a cookie sealed with another secret: no session',
    )

    const copy = cookie
    t.equal((await browser.post('/api/auth/logout')).status, 204, 'logout')
    t.equal((await sessionOf(copy)).signedIn, false, 'a copy of the cookie after logout: no session')
    assertProblem(t, await gw.call('/api/auth/me', { headers: asCookie(copy) }), 'AUTH_REQUIRED')
  })

  await t.test(
    `${SLOW_CLIENTS} slow-loris connections are closed in time while others are served`,
    async (t) => {
      const started = performance.now()
      const slow = Array.from({ length: SLOW_CLIENTS }, () => {
        const connection = rawConnection(gw.url)
        const drip = setInterval(() => connection.socket.write('a'), 100)
        connection.socket.write('GET /api/v1/chains HTTP/1.1\r\nHost: x\r\nX-Slow: ')
        void connection.closed.then(() => clearInterval(drip))
        t.teardown(() => {
          clearInterval(drip)
          connection.socket.destroy()
        })
        return connection.closed
      })
      const served = await gw.call(`/api/v1/tokens/${gw.p.eth.id}`)
      t.equal(served.statusCode, 200, 'a normal client is served meanwhile')
      const limit = new Promise<'limit'>((resolve) => {
        const timer = setTimeout(() => resolve('limit'), HEADERS_TIMEOUT_MS + CLOSE_MARGIN_MS + 2_000)
        t.teardown(() => clearTimeout(timer))
      })
      const closed = await Promise.race([Promise.all(slow), limit])
      if (closed === 'limit') {
        t.fail('slow clients were still connected long after HEADERS_TIMEOUT_MS')
        return
      }
      const lastClose = Math.max(...closed.map((c) => c.closedAfterMs))
      const afterAll = performance.now() - started
      t.comment(`slow-loris: ${SLOW_CLIENTS} connections, the last closed after ${Math.round(lastClose)} ms`)
      t.ok(
        lastClose <= HEADERS_TIMEOUT_MS + CLOSE_MARGIN_MS,
        `all closed within ${HEADERS_TIMEOUT_MS} ms + margin`,
      )
      t.ok(afterAll >= HEADERS_TIMEOUT_MS - 100, 'not before the bound')
      const answered = closed.filter((c) => c.statusCode)
      for (const answer of answered.slice(0, 3)) assertProblem(t, answer, 'REQUEST_TIMEOUT')
      raw.push(...closed)
    },
  )

  await t.test('no secret in any answer or log line of the sweep', async (t) => {
    for (const request of control.requests) {
      const auth = request.headers.authorization
      if (typeof auth === 'string') secrets.add(auth.replace(/^Bearer /, ''))
      const upstreamCookie = request.headers.cookie
      if (typeof upstreamCookie === 'string') secrets.add(upstreamCookie.replace(/^refresh_token=/, ''))
    }
    t.ok(
      secrets.size >= 4,
      `${secrets.size} secrets collected (tenant key, access and refresh tokens, a signature)`,
    )
    const answers = [
      ...gw.received,
      ...browser.received,
      ...raw.map((a) => JSON.stringify(a.headers) + a.body),
    ].join('\n')
    const logs = gw.logs.text()
    t.ok(logs.length > 10_000, 'the sweep logged')
    for (const secret of secrets) {
      t.notOk(answers.includes(secret), `an upstream secret (${secret.slice(0, 6)}…) is in no answer`)
      t.notOk(logs.includes(secret), `an upstream secret (${secret.slice(0, 6)}…) is in no log line`)
    }
    for (const secret of sessionSecrets) {
      t.notOk(logs.includes(secret), `a session (${secret.slice(0, 6)}…) is in no log line`)
      t.notOk(logs.includes(secret.slice(0, 40)), 'nor any part of it')
    }
  })
})
