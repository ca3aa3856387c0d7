// SIWX sign-in with a real private key: challenge, verify (every 401/500 case), the cookies it
// sets, the access token, and /auth/me.
import { decodeJwt, decodeProtectedHeader } from 'jose'
import t from 'tap'
import { z } from 'zod'
import { startSandbox } from '../helpers/sandbox.js'
import {
  sandboxChallenge,
  sandboxVerify,
  sessionSchema,
  signInToSandbox,
  siwxMessage,
} from '../helpers/sign-in.js'
import { newWallet } from '../helpers/wallet.js'
import { call, cookiePair, createOrder, TENANT } from './http.js'

const unauthorized = (message: string) => ({ message, error: 'Unauthorized', statusCode: 401 })
const generic500 = { statusCode: 500, message: 'Internal server error', error: 'Internal Server Error' }
const meSchema = z
  .object({ id: z.uuid(), address: z.string(), chainId: z.string(), createdAt: z.iso.datetime() })
  .strict()

t.test('the challenge is a single nonce, no credential needed', async (t) => {
  const { url } = await startSandbox(t)
  const res = await call(url, '/auth/siwx/challenge')
  t.equal(res.status, 200)
  const { nonce } = z
    .object({ nonce: z.string().min(8) })
    .strict()
    .parse(res.body)
  t.not(nonce, await sandboxChallenge(url), 'a new nonce each time')
})

t.test('a good signature gets 201, both tokens and both HttpOnly cookies', async (t) => {
  const { url } = await startSandbox(t)
  const wallet = newWallet()
  const res = await sandboxVerify(url, wallet, await sandboxChallenge(url))
  t.equal(res.status, 201)
  const { accessToken, refreshToken } = sessionSchema.parse(res.body)
  const access = res.cookies.find((c) => c.startsWith('access_token='))
  const refresh = res.cookies.find((c) => c.startsWith('refresh_token='))
  t.match(access, /^access_token=[^;]+; Max-Age=900; Path=\/; HttpOnly/)
  t.equal(cookiePair(res.cookies, 'access_token'), `access_token=${accessToken}`)
  t.match(refresh, /; Max-Age=2592000; Path=\/api\/auth; HttpOnly/)
  const refreshValue = cookiePair(res.cookies, 'refresh_token').slice('refresh_token='.length)
  t.not(refreshValue, refreshToken, 'the cookie is not the raw refresh token')
  t.ok(refreshValue.startsWith(`s%3A${refreshToken}.`), 'it is the signed, URL-encoded form')

  t.equal(decodeProtectedHeader(accessToken).alg, 'HS256')
  const claims = decodeJwt(accessToken)
  t.equal((claims.exp ?? 0) - (claims.iat ?? 0), 900, '15 minutes')
  t.match(claims, { address: wallet.address, chainId: '1' })
  t.match(claims.sub, /^[0-9a-f-]{36}$/)
})

t.test('a used nonce is refused; a failed verify leaves the nonce usable', async (t) => {
  const { url } = await startSandbox(t)
  const wallet = newWallet()
  const nonce = await sandboxChallenge(url)
  const bad = await sandboxVerify(url, wallet, nonce, { signer: newWallet() })
  t.equal(bad.status, 401)
  t.match(bad.body, {
    statusCode: 401,
    error: 'Unauthorized',
    message: /^EVM signature verification failed: /,
  })
  const retry = await sandboxVerify(url, wallet, nonce)
  t.equal(retry.status, 201, 'retry with the same nonce works')
  const reuse = await sandboxVerify(url, wallet, nonce)
  t.strictSame(reuse.body, unauthorized('Invalid or expired nonce.'))
})

t.test('the signature covers the whole message, not just the nonce line', async (t) => {
  const { url } = await startSandbox(t)
  const wallet = newWallet()
  const nonce = await sandboxChallenge(url)
  const signature = await wallet.signMessage({ message: `Nonce: ${nonce}` })
  const res = await sandboxVerify(url, wallet, nonce, { signature })
  t.equal(res.status, 401)
  t.match(res.body, { message: /^EVM signature verification failed: / })
})

t.test('malformed signatures and addresses are signature failures too', async (t) => {
  const { url } = await startSandbox(t)
  const wallet = newWallet()
  const nonce = await sandboxChallenge(url)
  for (const signature of ['0x1234', 'not-hex', `0x${'ab'.repeat(65)}`]) {
    const res = await sandboxVerify(url, wallet, nonce, { signature })
    t.equal(res.status, 401, signature)
    t.match(res.body, { message: /^EVM signature verification failed: .+/ })
  }
  const res = await call(url, '/auth/siwx/verify', {
    headers: TENANT,
    json: {
      data: { chainId: '1', accountAddress: 'bc1qnotevm' },
      message: `Nonce: ${nonce}`,
      signature: '0x00',
    },
  })
  t.match(res.body, { statusCode: 401, message: /^EVM signature verification failed: / })
})

t.test('a message without a Nonce line, an unknown nonce, an expired nonce', async (t) => {
  const { url, control } = await startSandbox(t, { nonceTtlMs: 60_000 })
  const wallet = newWallet()
  const nonce = await sandboxChallenge(url)
  const missing = await sandboxVerify(url, wallet, nonce, { message: 'Sign in please' })
  t.strictSame(missing.body, unauthorized('Nonce not found in the message.'))
  const unknown = await sandboxVerify(url, wallet, 'abcdefghijklmnop')
  t.strictSame(unknown.body, unauthorized('Invalid or expired nonce.'))
  control.advanceTime(60_001)
  const expired = await sandboxVerify(url, wallet, nonce)
  t.strictSame(expired.body, unauthorized('Invalid or expired nonce.'))
})

t.test('tenant key: wrong is 401 "x-tenant-api-key not present", missing is the generic 500', async (t) => {
  const { url } = await startSandbox(t)
  const wallet = newWallet()
  const nonce = await sandboxChallenge(url)
  const wrong = await sandboxVerify(url, wallet, nonce, { headers: { 'x-tenant-api-key': 'wrong' } })
  t.strictSame(wrong.body, unauthorized('x-tenant-api-key not present'))
  const missing = await sandboxVerify(url, wallet, nonce, { headers: {} })
  t.equal(missing.status, 500)
  t.strictSame(missing.body, generic500)
  t.equal((await sandboxVerify(url, wallet, nonce)).status, 201, 'neither consumed the nonce')
})

t.test('a body missing required fields is the generic 500; invalid JSON is a 400', async (t) => {
  const { url } = await startSandbox(t)
  const wallet = newWallet()
  const nonce = await sandboxChallenge(url)
  const message = siwxMessage(wallet.address, nonce)
  const bodies = [
    { data: { chainId: '1', accountAddress: wallet.address }, message },
    { message, signature: '0x00' },
    { data: { chainId: '1' }, message, signature: '0x00' },
    {},
  ]
  for (const json of bodies) {
    const res = await call(url, '/auth/siwx/verify', { headers: TENANT, json })
    t.equal(res.status, 500)
    t.strictSame(res.body, generic500)
  }
  const res = await call(url, '/auth/siwx/verify', {
    headers: { ...TENANT, 'content-type': 'application/json' },
    raw: '{',
  })
  t.equal(res.status, 400)
  t.match(res.body, { statusCode: 400, error: 'Bad Request' })
})

t.test('/auth/me returns the user; its id is stable per address and equals userId on orders', async (t) => {
  const { url, control } = await startSandbox(t)
  const first = await signInToSandbox(url)
  const me = meSchema.parse(
    (await call(url, '/auth/me', { headers: { authorization: `Bearer ${first.accessToken}` } })).body,
  )
  t.equal(me.address, first.wallet.address)
  t.equal(me.chainId, '1')
  const second = await signInToSandbox(url, first.wallet)
  const again = meSchema.parse(
    (await call(url, '/auth/me', { headers: { cookie: cookiePair(second.res.cookies, 'access_token') } }))
      .body,
  )
  t.equal(again.id, me.id, 'same address, same user')
  const order = await createOrder(url, {}, { ...TENANT, authorization: `Bearer ${second.accessToken}` })
  t.equal(order.userId, me.id)
  const other = await signInToSandbox(url)
  const otherMe = meSchema.parse(
    (await call(url, '/auth/me', { headers: { authorization: `Bearer ${other.accessToken}` } })).body,
  )
  t.not(otherMe.id, me.id)
  const issued = control.issueAccessToken(first.wallet.address, '137')
  const viaControl = meSchema.parse(
    (await call(url, '/auth/me', { headers: { authorization: `Bearer ${issued}` } })).body,
  )
  t.equal(viaControl.id, me.id, 'control.issueAccessToken speaks for the same user')
  t.equal(viaControl.chainId, '137')
})

t.test('/auth/me without a valid token is 401; the access token lapses after 15 minutes', async (t) => {
  const { url, control } = await startSandbox(t)
  const session = await signInToSandbox(url)
  const notFound = unauthorized('Access token not found in cookies or authorization header.')
  t.strictSame((await call(url, '/auth/me')).body, notFound)
  t.strictSame((await call(url, '/auth/me', { headers: TENANT })).body, notFound)
  const auth = { authorization: `Bearer ${session.accessToken}` }
  control.advanceTime(14 * 60_000)
  t.equal((await call(url, '/auth/me', { headers: auth })).status, 200)
  control.advanceTime(61_000)
  t.strictSame((await call(url, '/auth/me', { headers: auth })).body, notFound)
})
