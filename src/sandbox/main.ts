// `npm run sandbox`: the sandbox upstream as a standalone process. Its first stdout line is the
// URL, so scripts can wait for it; SIGINT/SIGTERM close it cleanly.
import { z } from 'zod'
import { buildSandbox } from './app.js'

const envSchema = z.object({
  SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  SANDBOX_TENANT_KEY: z.string().min(1).default('sandbox-tenant-key'),
  SANDBOX_AUTO: z.enum(['0', '1']).default('0'),
})

const parsed = envSchema.safeParse(process.env)
if (!parsed.success) {
  for (const issue of parsed.error.issues) console.error(`${issue.path.join('.')}: ${issue.message}`)
  process.exit(1)
}
const env = parsed.data

const { app } = buildSandbox({ tenantKey: env.SANDBOX_TENANT_KEY, autoAdvance: env.SANDBOX_AUTO === '1' })
const url = await app.listen({ host: '127.0.0.1', port: env.SANDBOX_PORT })
console.log(`sandbox upstream listening on ${url} (tenant key: ${env.SANDBOX_TENANT_KEY})`)
if (env.SANDBOX_AUTO === '1') console.log('demo mode: every new order walks to COMPLETED on its own')

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error)
        process.exit(1)
      },
    )
  })
}
