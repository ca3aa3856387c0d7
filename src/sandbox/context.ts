// Everything one sandbox instance holds, created once in buildSandbox and handed to the routes
// and the control object. Nothing here is module-level: two sandboxes never share state.
import type { FastifyRequest } from 'fastify'
import type { AccessTokens } from './auth/access-tokens.js'
import type { Nonces } from './auth/nonces.js'
import type { RefreshTokens } from './auth/refresh-tokens.js'
import type { UserStore } from './auth/users.js'
import type { Catalog } from './catalog/catalog.js'
import type { SandboxClock } from './clock.js'
import type { FaultQueue } from './faults.js'
import type { OrderStore } from './orders/store.js'
import type { RequestLog } from './recorder.js'
import type { OrderStreams } from './streams.js'

export interface SandboxContext {
  tenantKey: string
  clock: SandboxClock
  catalog: Catalog
  orders: OrderStore
  streams: OrderStreams
  users: UserStore
  accessTokens: AccessTokens
  refreshTokens: RefreshTokens
  nonces: Nonces
  requestLog: RequestLog
  faults: FaultQueue
  /** Sandbox-only switches that tests flip at run time. */
  switches: { refreshWorks: boolean }
  /** Whether a `dropAfter` fault hit this request (routes that hijack the reply honour it themselves). */
  dropsAfter(request: FastifyRequest): boolean
}
