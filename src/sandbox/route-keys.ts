// The spec routes by the name tests use to fault them and to read what they received.
// A key is "<METHOD> <fastify route url>", so it can be derived from a matched request.

export const ROUTE_KEYS = [
  'GET /v1/tokens',
  'GET /v1/tokens/swap-limits',
  'GET /v1/tokens/quote',
  'POST /v1/orders/create',
  'GET /v1/orders/:uuid',
  'GET /v1/orders',
  'GET /orders/:orderUUID/status-stream',
  'GET /auth/siwx/challenge',
  'POST /auth/siwx/verify',
  'POST /auth/refresh',
  'GET /auth/me',
] as const

export type RouteKey = (typeof ROUTE_KEYS)[number]

const known = new Set<string>(ROUTE_KEYS)

export function isRouteKey(value: string): value is RouteKey {
  return known.has(value)
}
