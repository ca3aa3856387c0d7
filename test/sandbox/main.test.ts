// `npm run sandbox` as a real process: the URL on the first stdout line, the tenant key from the
// environment, a clean exit on SIGTERM, and a clear refusal of bad configuration.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import t from 'tap'
import { UNCOVERED_CHILD } from '../helpers/process.js'
import { call } from './http.js'

function startMain(env: Record<string, string>) {
  return spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/main.ts'], {
    cwd: new URL('../..', import.meta.url),
    env: { ...process.env, ...UNCOVERED_CHILD, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

t.test('prints the URL first, serves with the configured key, exits 0 on SIGTERM', async (t) => {
  const child = startMain({ SANDBOX_PORT: '0', SANDBOX_TENANT_KEY: 'from-env-key' })
  t.teardown(() => child.kill('SIGKILL'))
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string]
  const match =
    /^sandbox upstream listening on (http:\/\/127\.0\.0\.1:\d+) \(tenant key: from-env-key\)$/.exec(line)
  t.ok(match, line)
  const url = match?.[1] ?? ''
  const quote = '/v1/tokens/swap-limits?depositTokenId=2&settleTokenId=3'
  t.equal((await call(url, quote, { headers: { 'x-tenant-api-key': 'from-env-key' } })).status, 200)
  t.equal((await call(url, quote, { headers: { 'x-tenant-api-key': 'sandbox-tenant-key' } })).status, 401)
  child.kill('SIGTERM')
  const [code] = await once(child, 'exit')
  t.equal(code, 0)
})

t.test('a bad variable stops it with a message naming the variable', async (t) => {
  const child = startMain({ SANDBOX_PORT: 'not-a-port' })
  let stderr = ''
  child.stderr.on('data', (chunk) => {
    stderr += chunk
  })
  const [code] = await once(child, 'exit')
  t.equal(code, 1)
  t.match(stderr, /SANDBOX_PORT/)
})
