// `npm run openapi [file]`: writes the OpenAPI document to a file (openapi.json by default) for
// publishing, without serving anything: the app is built against an upstream that is never called
// and the document read from it. PUBLIC_ORIGIN (the document's server) and API_PREFIX are taken
// from the environment, as the gateway itself would.
import { writeFile } from 'node:fs/promises'
import { buildApp } from '../../app.js'
import { loadConfig } from '../../config.js'

const { PUBLIC_ORIGIN, API_PREFIX, PORT } = process.env
const config = loadConfig({
  ...(PUBLIC_ORIGIN ? { PUBLIC_ORIGIN } : {}),
  ...(API_PREFIX ? { API_PREFIX } : {}),
  ...(PORT ? { PORT } : {}),
  NODE_ENV: 'development',
  UPSTREAM_URL: 'http://127.0.0.1:9',
  TENANT_API_KEY: 'never-sent',
  METRICS_PORT: '0',
  LOG_LEVEL: 'silent',
})
const app = await buildApp(config, { catalogTuning: { startupWaitMs: 0 } })
await app.ready()
const file = process.argv[2] ?? 'openapi.json'
await writeFile(file, `${JSON.stringify(app.swagger(), null, 2)}\n`)
await app.close()
process.stdout.write(`wrote ${file}\n`)
