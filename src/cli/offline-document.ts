// The OpenAPI document without serving anything: the app is built against an upstream that is never
// called and the document read from it. PUBLIC_ORIGIN (the document's server), API_PREFIX and PORT
// are taken from the environment given, as the gateway itself would.
import { buildApp } from '../app.js'
import { loadConfig, withUpstream } from '../config.js'

/** Never called: nothing is served. */
const UPSTREAM = 'http://127.0.0.1:9'

export async function offlineDocument(env: NodeJS.ProcessEnv): Promise<unknown> {
  const { PUBLIC_ORIGIN, API_PREFIX, PORT } = env
  const config = loadConfig({
    ...(PUBLIC_ORIGIN ? { PUBLIC_ORIGIN } : {}),
    ...(API_PREFIX ? { API_PREFIX } : {}),
    ...(PORT ? { PORT } : {}),
    NODE_ENV: 'development',
    UPSTREAM_URL: UPSTREAM,
    TENANT_API_KEY: 'never-sent',
    METRICS_PORT: '0',
    LOG_LEVEL: 'silent',
  })
  const app = await buildApp(withUpstream(config, UPSTREAM), { catalogTuning: { startupWaitMs: 0 } })
  await app.ready()
  const document = app.swagger()
  await app.close()
  return document
}
