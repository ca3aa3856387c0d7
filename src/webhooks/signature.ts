// Standard Webhooks signatures, made by its reference library: one `v1,<base64>` per configured
// secret, space-separated, so a receiver can rotate its secret.
import { Webhook } from 'standardwebhooks'

export interface WebhookSigner {
  /** The headers of one attempt made at `now` (epoch ms). */
  headers(eventId: string, now: number, body: string): Record<string, string>
}

export function webhookSigner(secrets: readonly string[]): WebhookSigner {
  const signers = secrets.map((secret) => new Webhook(secret))
  return {
    headers(eventId, now, body) {
      const at = new Date(now)
      return {
        'content-type': 'application/json',
        'webhook-id': eventId,
        'webhook-timestamp': String(Math.floor(now / 1000)),
        'webhook-signature': signers.map((signer) => signer.sign(eventId, at, body)).join(' '),
      }
    },
  }
}
