// POST /auth/refresh: only the cookie exactly as set counts, and it fails today as the spec says;
// the sandbox-only switch makes it succeed so a gateway can test that path too.
import t from 'tap'
import { z } from 'zod'
import { startSandbox } from '../helpers/sandbox.js'
import { sessionSchema, signInToSandbox } from '../helpers/sign-in.js'
import { call, cookiePair } from './http.js'

const unauthorized = (message: string) => ({ message, error: 'Unauthorized', statusCode: 401 })
const notFound = unauthorized('Refresh token not found.')
const invalid = unauthorized('Invalid or expired refresh token.')

t.test('the exact refresh cookie is refused with "Invalid or expired refresh token."', async (t) => {
  const { url } = await startSandbox(t)
  const session = await signInToSandbox(url)
  const res = await call(url, '/auth/refresh', {
    method: 'POST',
    headers: { cookie: cookiePair(session.res.cookies, 'refresh_token') },
  })
  t.equal(res.status, 401)
  t.strictSame(res.body, invalid)
})

t.test('any other way of sending the token is "Refresh token not found."', async (t) => {
  const { url } = await startSandbox(t)
  const session = await signInToSandbox(url)
  const exact = cookiePair(session.res.cookies, 'refresh_token')
  const attempts: { name: string; headers?: Record<string, string>; json?: unknown }[] = [
    { name: 'nothing' },
    { name: 'raw token as cookie', headers: { cookie: `refresh_token=${session.refreshToken}` } },
    { name: 'Bearer', headers: { authorization: `Bearer ${session.refreshToken}` } },
    { name: 'JSON body', json: { refreshToken: session.refreshToken } },
    { name: 'tampered cookie', headers: { cookie: `${exact.slice(0, -3)}abc` } },
    {
      name: 'access token cookie only',
      headers: { cookie: cookiePair(session.res.cookies, 'access_token') },
    },
  ]
  for (const attempt of attempts) {
    const res = await call(url, '/auth/refresh', {
      method: 'POST',
      headers: attempt.headers,
      json: attempt.json,
    })
    t.equal(res.status, 401, attempt.name)
    t.strictSame(res.body, notFound, attempt.name)
  }
})

t.test(
  'setRefreshWorks(true): 200 with new tokens and cookies; the old cookie is then used up',
  async (t) => {
    const { url, control } = await startSandbox(t)
    const session = await signInToSandbox(url)
    control.setRefreshWorks(true)
    const cookie = cookiePair(session.res.cookies, 'refresh_token')
    const res = await call(url, '/auth/refresh', { method: 'POST', headers: { cookie } })
    t.equal(res.status, 200)
    const tokens = sessionSchema.parse(res.body)
    t.not(tokens.accessToken, session.accessToken)
    t.equal(cookiePair(res.cookies, 'access_token'), `access_token=${tokens.accessToken}`)
    t.match(
      res.cookies.find((c) => c.startsWith('refresh_token=')),
      /Path=\/api\/auth; HttpOnly/,
    )
    const me = await call(url, '/auth/me', { headers: { authorization: `Bearer ${tokens.accessToken}` } })
    t.equal(me.status, 200, 'the new access token works')
    const replay = await call(url, '/auth/refresh', { method: 'POST', headers: { cookie } })
    t.strictSame(replay.body, invalid, 'refresh tokens rotate')
    const next = await call(url, '/auth/refresh', {
      method: 'POST',
      headers: { cookie: cookiePair(res.cookies, 'refresh_token') },
    })
    t.equal(next.status, 200, 'the new cookie works')
    z.object({ accessToken: z.string() }).parse(next.body)
  },
)

t.test('with refresh switched on, a refresh token older than 30 days is refused', async (t) => {
  const { url, control } = await startSandbox(t)
  const session = await signInToSandbox(url)
  control.setRefreshWorks(true)
  control.advanceTime(30 * 24 * 3600 * 1000 + 1)
  const res = await call(url, '/auth/refresh', {
    method: 'POST',
    headers: { cookie: cookiePair(session.res.cookies, 'refresh_token') },
  })
  t.strictSame(res.body, invalid)
})
