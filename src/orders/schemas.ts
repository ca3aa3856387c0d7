// Inputs of the pricing and order routes (docs/api.md, "Pricing and orders"), checked before any upstream call.
import { z } from 'zod'
import { bodyField, bodyObject, queryField } from '../edge/field-messages.js'
import { onTheWire } from '../edge/wire-types.js'

/** A positive integer id, from a query string (text) or a JSON body (number). */
export const tokenIdQuery = onTheWire(
  z
    .string({ error: queryField('must be a positive integer') })
    .regex(/^[1-9]\d{0,15}$/, 'must be a positive integer')
    .transform(Number),
  { type: 'integer', minimum: 1 },
)
/** z.int() itself refuses integers beyond the safe range. */
export const tokenId = z
  .int({ error: bodyField('must be a positive integer') })
  .positive('must be a positive integer')

const booleanText = onTheWire(z.enum(['true', 'false'], { error: queryField('must be true or false') }), {
  type: 'boolean',
})

export const quoteQuery = z.object({
  depositTokenId: tokenIdQuery,
  settleTokenId: tokenIdQuery,
  amount: onTheWire(
    z
      .string({ error: queryField('must be a positive number') })
      .regex(/^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/, 'must be a positive number')
      .refine((v) => Number.isFinite(Number(v)) && Number(v) > 0, 'must be a positive number'),
    { type: 'number', exclusiveMinimum: 0, description: 'Decimal or exponent notation.' },
  ),
  amountIsDeposit: booleanText,
})

/** Swap limits: the two ids are checked; any other parameter is forwarded as given. */
export const swapLimitsQuery = z.looseObject({
  depositTokenId: tokenIdQuery,
  settleTokenId: tokenIdQuery,
})

export const createBody = z
  .strictObject(
    {
      depositTokenId: tokenId,
      settleTokenId: tokenId,
      receivingAddress: z
        .string({ error: bodyField('must be a string') })
        .trim()
        .min(1, 'is required')
        .max(256, 'must be at most 256 characters'),
      /** Its sign is checked by the route: zero or negative is INVALID_AMOUNT, not VALIDATION_FAILED. */
      intendedAmount: z
        .number({ error: bodyField('must be a number') })
        .describe('A positive number (zero or negative: INVALID_AMOUNT).'),
      intendedIsDeposit: z.boolean({ error: bodyField('must be true or false') }),
    },
    { error: bodyObject },
  )
  .meta({ id: 'CreateOrderBody', description: 'An order to create: all five fields, nothing else.' })
export type CreateBody = z.infer<typeof createBody>

export const createHeaders = z.looseObject({
  'idempotency-key': z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/, 'must be 1 to 255 printable characters')
    .optional(),
})

export const orderParams = z.object({
  uuid: onTheWire(z.uuid({ message: 'must be a UUID' }), { type: 'string', format: 'uuid' }),
})
