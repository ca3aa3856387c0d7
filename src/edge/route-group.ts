// Every public route names its group (CONTRACT.md §9): rate limits count per group and client.
import type { RateLimitGroup } from '../config.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The rate-limit group; routes without one count in 'global'. Health and metrics set `false`. */
    group?: RateLimitGroup | false
  }
}
