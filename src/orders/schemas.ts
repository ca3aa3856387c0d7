// Inputs of the pricing and order routes (docs/api.md, "Pricing and orders"), checked before any upstream call.
import { z } from 'zod'
import { bodyField, bodyObject, queryField } from '../edge/field-messages.js'
import { ID_MAX, onTheWire } from '../edge/wire-types.js'

const ID_TOO_LARGE = `must be at most ${ID_MAX}`

/** A positive integer id, from a query string (text) or a JSON body (number), up to ID_MAX. */
export const tokenIdQuery = onTheWire(
  z
    .string({ error: queryField('must be a positive integer') })
    .regex(/^[1-9]\d{0,9}$/, 'must be a positive integer')
    .transform(Number)
    .refine((id) => id <= ID_MAX, ID_TOO_LARGE),
  { type: 'integer', minimum: 1, maximum: ID_MAX },
)
export const tokenId = z
  .int({ error: bodyField('must be a positive integer') })
  .positive('must be a positive integer')
  .max(ID_MAX, ID_TOO_LARGE)

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
export type QuoteQuery = z.output<typeof quoteQuery>

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
    .max(255, 'must be 1 to 255 printable characters')
    .regex(/^[\x21-\x7e]{1,255}$/, 'must be 1 to 255 printable characters')
    .optional(),
})

export const orderParams = z.object({
  uuid: onTheWire(z.uuid({ message: 'must be a UUID' }), {
    type: 'string',
    format: 'uuid',
    minLength: 36,
    maxLength: 36,
  }),
})
