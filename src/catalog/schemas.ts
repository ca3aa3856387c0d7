// The catalog routes' inputs. A repeated parameter is refused with its own message, so
// `?network=ETH&network=SOL` is a clear error rather than a silent choice of one.
import { z } from 'zod'
import { queryField } from '../edge/field-messages.js'
import { ID_MAX, onTheWire } from '../edge/wire-types.js'

const text = (max: number) =>
  z
    .string({ error: queryField('must be text') })
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .regex(/^\P{Cc}*$/u, 'must not contain control characters')

/** Filters of GET /v1/tokens (docs/catalog.md). Unknown parameters (cache busters) are ignored. */
export const tokensQuery = z.object({
  tradable: onTheWire(
    z.enum(['true', 'false'], { error: queryField('must be true or false') }).transform((v) => v === 'true'),
    { type: 'boolean', description: "`true`: the token is active and its chain's deposits are open." },
  ).optional(),
  network: text(32).optional(),
  symbol: text(32).optional(),
  q: text(64).optional(),
})
export type TokensQuery = z.infer<typeof tokensQuery>

export const tokenParams = z.object({
  id: onTheWire(
    z
      .string()
      .regex(/^0*[1-9][0-9]{0,9}$/, 'must be a token id (a positive integer)')
      .transform(Number)
      .refine((id) => id <= ID_MAX, `must be a token id (at most ${ID_MAX})`),
    { type: 'integer', minimum: 1, maximum: ID_MAX },
  ),
})
