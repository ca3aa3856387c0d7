// fly.toml's shutdown settings agree with each other: the readiness check sees the instance unready
// before it drains, and Fly's SIGKILL comes only after both phases could have run to their end.
import { readFile } from 'node:fs/promises'
import t from 'tap'
import { loadConfig } from '../../src/config.js'

const seconds = (text: string) => Number(/^(\d+)s$/.exec(text)?.[1] ?? Number.NaN)

t.test(
  "fly.toml: kill_timeout above the shutdown's phases, the ready delay above the check interval",
  async (t) => {
    const toml = await readFile(new URL('../../fly.toml', import.meta.url), 'utf8')
    const env = Object.fromEntries(
      [...(/\[env\]\n([\s\S]*?)\n\n/.exec(toml)?.[1] ?? '').matchAll(/^\s*(\w+) = "([^"]*)"/gm)].map((m) => [
        m[1]!,
        m[2]!,
      ]),
    )
    const config = loadConfig({
      ...env,
      UPSTREAM_URL: 'https://up.example',
      TENANT_API_KEY: 'k',
      SESSION_SECRET: 's'.repeat(32),
    })
    const killTimeoutMs = 1000 * seconds(/^kill_timeout = "([^"]+)"/m.exec(toml)?.[1] ?? '')
    const readyCheck = /\[\[http_service\.checks\]\]\n((?:\s+\w+ = .*\n)+)/g
    const checks = [...toml.matchAll(readyCheck)].map((m) => m[1]!)
    const readiness = checks.find((c) => c.includes('path = "/readyz"'))
    const intervalMs = 1000 * seconds(/interval = "([^"]+)"/.exec(readiness ?? '')?.[1] ?? '')

    t.ok(config.shutdown.readyDelayMs >= 2 * intervalMs, 'two readiness checks fail before the drain begins')
    t.ok(
      killTimeoutMs > config.shutdown.readyDelayMs + config.shutdown.timeoutMs,
      'SIGKILL only after both phases',
    )
  },
)
