// The push routes' bodies: a browser's `PushSubscription.toJSON()` as it is sent to subscribe, and the
// public key answer. The endpoint's form and where it resolves are checked by the route (endpoint-guard.ts).
import { createPublicKey } from 'node:crypto'
import { z } from 'zod'
import { bodyField, queryField } from '../edge/field-messages.js'
import { documented, onTheWire } from '../edge/wire-types.js'
import { orderStatus } from '../upstream/schemas.js'
import { jwkOfPoint } from './p256-point.js'

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/
const bytesOf = (text: string) => Buffer.from(text, 'base64url')

/** A P-256 point in uncompressed form (0x04, x, y), on the curve. */
function isP256Point(text: string): boolean {
  const jwk = jwkOfPoint(text)
  if (!jwk) return false
  try {
    createPublicKey({ format: 'jwk', key: jwk })
    return true
  } catch {
    return false
  }
}

const base64url = (mustBe: string) =>
  z
    .string({ error: bodyField(mustBe) })
    .max(256, mustBe)
    .regex(BASE64URL, mustBe)

export const ENDPOINT_MAX = 2048

export const pushSubscriptionBody = z
  .object(
    {
      endpoint: z
        .string({ error: bodyField('must be a URL') })
        .min(1, 'must be a URL')
        .max(ENDPOINT_MAX, `must be at most ${ENDPOINT_MAX} characters`)
        .describe(
          "The push service's URL for this browser: `https:`, naming a host that resolves to public addresses.",
        ),
      expirationTime: z
        .number({ error: bodyField('must be a number or null') })
        .nullable()
        .optional()
        .describe('When the push service ends the subscription (epoch ms), or null.'),
      keys: z.object(
        {
          p256dh: base64url('must be the base64url of a 65-byte uncompressed P-256 point')
            .refine(isP256Point, 'must be the base64url of a 65-byte uncompressed P-256 point')
            .describe("The browser's ECDH public key."),
          auth: base64url('must be the base64url of 16 bytes')
            .refine((text) => bytesOf(text).length === 16, 'must be the base64url of 16 bytes')
            .describe('The authentication secret.'),
        },
        { error: bodyField('must be an object with p256dh and auth') },
      ),
    },
    { error: bodyField('must be a JSON object') },
  )
  .meta({
    id: 'PushSubscriptionBody',
    description: "A browser's `PushSubscription.toJSON()`: where to push, and the keys to encrypt with.",
  })
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionBody>

export const unsubscribeQuery = z.object({
  endpoint: onTheWire(z.string({ error: queryField('must be the subscribed endpoint') }).max(ENDPOINT_MAX), {
    type: 'string',
    format: 'uri',
    maxLength: ENDPOINT_MAX,
  }).describe('The endpoint of the subscription to end.'),
})

export const publicKeyBody = z
  .object({
    publicKey: z
      .string()
      .max(88)
      .describe('The VAPID public key (base64url): `applicationServerKey` for `PushManager.subscribe`.'),
  })
  .meta({ id: 'PushPublicKey', description: 'The key a page subscribes with.' })

export const pushSubscribedBody = z
  .object({
    orderId: documented(z.string(), { format: 'uuid', maxLength: 36 }).describe(
      'The order whose events are pushed.',
    ),
    status: orderStatus.describe('Its status now.'),
  })
  .meta({ id: 'PushSubscribed', description: 'A subscription made: the order and its status now.' })
