// Builds a gateway in front of a fresh sandbox, both closed when the test ends. A request answered
// with a problem its route does not declare (the API reference is wrong about it) fails its test.
import type { FastifyInstance } from 'fastify'
import type { Test } from 'tap'
import { type AppDeps, buildApp } from '../../src/app.js'
import { type AppConfig, type Config, loadConfig, withUpstream } from '../../src/config.js'
import type { SandboxOptions } from '../../src/sandbox/app.js'
import { type LogSink, logSink } from './logs.js'
import { startSandbox } from './sandbox.js'

export const TEST_TENANT_KEY = 'sandbox-tenant-key-for-tests-0123'
export const TEST_SESSION_SECRET = 'test-session-secret-0123456789-abcdefghij'
/** The gateway's error line for a problem its route does not declare (edge/route-answers.ts). */
export const UNDECLARED = 'undeclared problem code'

export interface GatewayOptions {
  /** Environment overrides (the names of docs/configuration.md). */
  env?: Record<string, string>
  sandbox?: SandboxOptions
  deps?: AppDeps
  /** Listen on a real port (for SSE, cookies, shutdown); otherwise use app.inject. */
  listen?: boolean
  /**
   * Run as `npm start` does without UPSTREAM_URL: the sandbox is the built-in one (its control routes
   * mounted, its session lapses seen), and the configuration is sandbox mode's.
   */
  builtInSandbox?: boolean
}

export async function startGateway(t: Test, opts: GatewayOptions = {}) {
  const sandbox = await startSandbox(t, { tenantKey: TEST_TENANT_KEY, ...opts.sandbox })
  // Failed as the line is written, while the test runs: it names the route and the code.
  const logs: LogSink = logSink((line) => {
    if (!line.includes(UNDECLARED)) return
    const { code, method, route } = JSON.parse(line) as Record<string, string>
    t.fail(`${UNDECLARED} ${code} on ${method} ${route}: declare it in the route's config.answers`)
  })
  const loaded: Config = loadConfig({
    NODE_ENV: 'test',
    ...(opts.builtInSandbox ? {} : { UPSTREAM_URL: sandbox.url }),
    TENANT_API_KEY: TEST_TENANT_KEY,
    SESSION_SECRET: TEST_SESSION_SECRET,
    METRICS_PORT: '0',
    LOG_LEVEL: 'info',
    // A loaded test machine can stall a process past 250 ms and make a sound Redis look hung; the
    // tests that hang Redis on purpose set their own deadline.
    REDIS_COMMAND_TIMEOUT_MS: '2000',
    ...opts.env,
  })
  // As server.ts does: the sandbox's URL becomes the upstream's, and the gateway is told about it.
  const config: AppConfig = withUpstream(loaded, loaded.upstream.url ?? sandbox.url)
  const { control } = sandbox
  const builtIn = opts.builtInSandbox
    ? { sandbox: { url: sandbox.url, lapsed: (token: string) => !control.isAccessTokenLive(token) } }
    : {}
  // The start-up check of the tenant key is one more upstream call, which tests counting upstream calls
  // would see: on only where a test asks for it.
  const app: FastifyInstance = await buildApp(config, {
    logStream: logs.stream,
    checkTenantKeyAtStart: false,
    ...builtIn,
    ...opts.deps,
  })
  t.teardown(() => app.close())
  let url = ''
  if (opts.listen) url = await app.listen({ port: 0, host: '127.0.0.1' })
  else await app.ready()
  return { app, url, sandbox, logs, config }
}

/**
 * A gateway built but not ready, its upstream unreachable, closed when the test ends: a test registers
 * routes of its own before `ready()`. It logs only when given where to (`deps.logStream`).
 */
export async function buildUnready(t: Test, deps: AppDeps = {}): Promise<FastifyInstance> {
  const config = loadConfig({
    NODE_ENV: 'test',
    UPSTREAM_URL: 'http://127.0.0.1:9',
    TENANT_API_KEY: 'unused',
    SESSION_SECRET: TEST_SESSION_SECRET,
    METRICS_PORT: '0',
    LOG_LEVEL: deps.logStream ? 'info' : 'silent',
  })
  const app = await buildApp(config, { catalogTuning: { startupWaitMs: 0 }, ...deps })
  t.teardown(() => app.close())
  return app
}
