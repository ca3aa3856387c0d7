// A local push service double, and browsers' subscriptions to it. It keeps every request it receives,
// answers what the test says (per path), decrypts each message with the subscription's own private
// key (http_ece, the reference implementation of aes128gcm) and checks the VAPID token with jose.
import { createECDH, randomBytes, randomUUID } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import ece from 'http_ece'
import { importJWK, jwtVerify } from 'jose'
import type { Test } from 'tap'

export interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: Buffer
}

export interface Answer {
  status: number
  headers?: Record<string, string>
}

export interface Browser {
  /** What `PushSubscription.toJSON()` gives a page, to POST to the gateway. */
  json: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } }
  /** The secret part of the endpoint's path (logs must never show it). */
  token: string
  /** The message as the browser would read it. */
  decrypt(body: Buffer): Record<string, unknown>
  /** The same endpoint with new keys, as a browser that subscribed again. */
  rekeyed(): Browser
}

export async function startPushService(t: Test) {
  const received: Received[] = []
  const answers = new Map<string, Answer[]>()
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const path = req.url ?? ''
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks) })
      const answer = answers.get(path)?.shift() ?? { status: 201 }
      res.writeHead(answer.status, answer.headers).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const browserAt = (token: string): Browser => {
    const ecdh = createECDH('prime256v1')
    ecdh.generateKeys()
    const auth = randomBytes(16)
    return {
      token,
      json: {
        endpoint: `${origin}/push/${token}`,
        expirationTime: null,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
      },
      decrypt: (body) =>
        JSON.parse(
          ece.decrypt(body, { version: 'aes128gcm', privateKey: ecdh, authSecret: auth }).toString(),
        ),
      rekeyed: () => browserAt(token),
    }
  }

  return {
    origin,
    received,
    /** What the next requests to this browser's endpoint are answered, in turn (then 201). */
    answer(browser: Browser, ...next: Answer[]) {
      answers.set(`/push/${browser.token}`, next)
    },
    browser: () => browserAt(randomUUID().replaceAll('-', '')),
    to: (browser: Browser) => received.filter((r) => r.path === `/push/${browser.token}`),
  }
}

/** The VAPID token's claims, verified with the key the Authorization header names. */
export async function vapidClaims(authorization: string | undefined) {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '')
  if (!match) throw new Error(`not a VAPID authorization: ${authorization}`)
  const point = Buffer.from(match[2]!, 'base64url')
  const key = await importJWK(
    {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    'ES256',
  )
  const { payload, protectedHeader } = await jwtVerify(match[1]!, key, { algorithms: ['ES256'] })
  return { payload, protectedHeader, publicKey: match[2]! }
}
