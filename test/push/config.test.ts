// The WEB_PUSH_* settings: a pair is made outside production, required whole in production, and a
// key pair that does not match stops start-up naming the variable.
import t from 'tap'
import { loadConfig } from '../../src/config.js'
import { generateVapidKeys } from '../../src/push/vapid-keys.js'

const PRODUCTION = {
  NODE_ENV: 'production',
  UPSTREAM_URL: 'https://upstream.example',
  TENANT_API_KEY: 'k',
  SESSION_SECRET: 'x'.repeat(32),
  PUBLIC_ORIGIN: 'https://app.example',
}

t.test('outside production a pair is made and local endpoints are admitted', async (t) => {
  const push = loadConfig({})['push']
  t.ok(push?.keysGenerated)
  t.equal(Buffer.from(push!.keys.publicKey, 'base64url').length, 65)
  t.equal(push!.allowLocalEndpoints, true)
  t.same([push!.ttlS, push!.maxPerOrder], [86400, 5])
})

t.test('in production Web Push needs both keys and the subject, and admits no local endpoint', async (t) => {
  const keys = generateVapidKeys()
  const pair = { WEB_PUSH_PUBLIC_KEY: keys.publicKey, WEB_PUSH_PRIVATE_KEY: keys.privateKey }
  t.equal(loadConfig(PRODUCTION).push, undefined)
  t.equal(loadConfig({ ...PRODUCTION, ...pair }).push, undefined, 'no subject: off')
  const on = loadConfig({ ...PRODUCTION, ...pair, WEB_PUSH_SUBJECT: 'mailto:ops@app.example' }).push
  t.match(on, { keys, keysGenerated: false, allowLocalEndpoints: false })
})

t.test('a key without its pair, a mismatched pair or a bad subject stops start-up', async (t) => {
  const [a, b] = [generateVapidKeys(), generateVapidKeys()]
  t.throws(() => loadConfig({ WEB_PUSH_PUBLIC_KEY: a.publicKey }), /WEB_PUSH_PRIVATE_KEY/)
  t.throws(
    () => loadConfig({ WEB_PUSH_PUBLIC_KEY: a.publicKey, WEB_PUSH_PRIVATE_KEY: b.privateKey }),
    /WEB_PUSH_PRIVATE_KEY: is not the private key of WEB_PUSH_PUBLIC_KEY/,
  )
  for (const [publicKey, privateKey] of [
    ['not-a-point', a.privateKey],
    [a.publicKey, 'AAAA'],
  ])
    t.throws(
      () => loadConfig({ WEB_PUSH_PUBLIC_KEY: publicKey, WEB_PUSH_PRIVATE_KEY: privateKey }),
      /WEB_PUSH_PRIVATE_KEY: is not the private key of WEB_PUSH_PUBLIC_KEY/,
      'a public key that is no P-256 point, or a private key that is no scalar',
    )
  t.throws(() => loadConfig({ WEB_PUSH_SUBJECT: 'ops@app.example' }), /WEB_PUSH_SUBJECT/)
})
