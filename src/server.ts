// Process entry: configuration, the sandbox when no upstream is configured, listen, graceful shutdown.
import closeWithGrace from 'close-with-grace'
import pino, { type Logger } from 'pino'
import { buildApp } from './app.js'
import { type Config, loadConfig, withUpstream } from './config.js'
import { ConfigError } from './errors.js'
import { withDevelopmentSecret } from './dev/session-secret.js'
import { type DevUpstream, startDevUpstream } from './dev/upstream.js'
import { shutDown } from './ops/shutdown.js'

const development = await withDevelopmentSecret(process.env)

function configOrExit(): Config {
  try {
    return loadConfig(development.env)
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err
    process.stderr.write(`${err.message}\n`)
    process.exit(1)
  }
}

const config = configOrExit()
const log = pino({ level: config.logLevel })

let sandbox: DevUpstream | undefined
let upstreamUrl = config.upstream.url
if (!upstreamUrl) {
  sandbox = await startDevUpstream(config.upstream.tenantKey)
  upstreamUrl = sandbox.url
  log.warn(
    { sandbox: upstreamUrl },
    `UPSTREAM_URL is not set: started the built-in sandbox upstream at ${upstreamUrl} (development only; its control routes are under ${upstreamUrl}/__sandbox, and mounted at ${config.apiPrefix}/sandbox on the gateway)`,
  )
}
if (development.file) {
  log.warn(
    { sessionSecretFile: development.file },
    `SESSION_SECRET is not set: sessions are sealed with this checkout's development secret, kept in ${development.file} (git-ignored) so that restarts keep them; production requires SESSION_SECRET`,
  )
}

// Some configuration is only known to be wrong once tried (REDIS_URL's database): the same clean exit.
const app = await buildApp(withUpstream(config, upstreamUrl), sandbox ? { sandbox } : {}).catch(
  (err: unknown) => {
    if (!(err instanceof ConfigError)) throw err
    process.stderr.write(`${err.message}\n`)
    process.exit(1)
  },
)
// Closing writes the log's last lines; this covers an exit that close-with-grace forces when closing hangs.
// (app.log is the pino logger buildApp made; Fastify's type for it leaves flush out.)
process.once('exit', () => (app.log as Logger).flush())

const times = config.shutdown
/**
 * Phase 1 (the ready delay) gives a load balancer time to stop sending: it applies to SIGTERM, what
 * orchestrators send, and in production to any signal. Outside production, Ctrl-C (SIGINT) from a
 * developer's terminal skips it and drains at once.
 */
const readyDelayFor = (signal: string | undefined) =>
  signal === 'SIGINT' && config.env !== 'production' ? 0 : times.readyDelayMs
// A backstop only (it exits 1): shutDown itself ends within its phases, cutting what is left.
const backstopMs = times.readyDelayMs + times.timeoutMs + 5_000
closeWithGrace({ delay: backstopMs, logger: false }, async ({ signal, err }) => {
  if (err) {
    app.log.error({ err }, 'closing after an uncaught error')
    await app.close()
  } else {
    app.log.info({ signal }, 'shutting down')
    await shutDown(app, { ...times, readyDelayMs: readyDelayFor(signal) })
  }
  await sandbox?.close()
})

await app.listen({ port: config.port, host: config.host })
