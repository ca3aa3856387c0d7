// Process entry: configuration, the sandbox when no upstream is configured, listen, graceful shutdown.
import closeWithGrace from 'close-with-grace'
import pino from 'pino'
import { type BuiltInSandbox, buildApp } from './app.js'
import { type Config, ConfigError, loadConfig } from './config.js'
import { buildSandbox } from './sandbox/app.js'

function configOrExit(): Config {
  try {
    return loadConfig(process.env)
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err
    process.stderr.write(`${err.message}\n`)
    process.exit(1)
  }
}

const config = configOrExit()
const log = pino({ level: config.logLevel })

let sandbox: ReturnType<typeof buildSandbox> | undefined
let builtIn: BuiltInSandbox | undefined
let upstreamUrl = config.upstreamUrl
if (!upstreamUrl) {
  sandbox = buildSandbox({ tenantKey: config.tenantApiKey })
  upstreamUrl = await sandbox.app.listen({ port: 0, host: '127.0.0.1' })
  const { control } = sandbox
  builtIn = { url: upstreamUrl, lapsed: (accessToken) => !control.isAccessTokenLive(accessToken) }
  log.warn(
    { sandbox: upstreamUrl },
    `UPSTREAM_URL is not set: started the built-in sandbox upstream at ${upstreamUrl} (development only; its control routes are under ${upstreamUrl}/__sandbox, and mounted at ${config.apiPrefix}/sandbox on the gateway)`,
  )
}
if (config.sessionSecretGenerated) {
  log.warn(
    'SESSION_SECRET is not set: sessions are sealed with a key generated for this process and die with it',
  )
}

const app = await buildApp({ ...config, upstreamUrl }, builtIn ? { sandbox: builtIn } : {})

closeWithGrace({ delay: config.shutdownTimeoutMs, logger: false }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'closing after an uncaught error')
  else app.log.info({ signal }, 'shutting down: draining requests and ending streams')
  await app.close()
  await sandbox?.app.close()
})

await app.listen({ port: config.port, host: config.host })
