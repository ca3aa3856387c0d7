// One attempt to push one event to one subscription: the message encrypted for the browser's keys
// (aes128gcm, RFC 8291, by @block65/webcrypto-web-push), signed for the push service (VAPID, RFC 8292:
// an ES256 JWT made with jose), sent over a dispatcher whose every connection goes through the
// endpoint guard, and never redirected. The push service's answer decides: 2xx delivered, 404 or 410
// the subscription is gone (and deleted), anything else tried again. Logs name the endpoint's host
// only: the endpoint and its keys are secrets.
import type { KeyObject } from 'node:crypto'
import { encryptNotification } from '@block65/webcrypto-web-push'
import type { FastifyBaseLogger } from 'fastify'
import { SignJWT } from 'jose'
import { Agent, request } from 'undici'
import type { Clock } from '../clock.js'
import type { AttemptOutcome, Delivery } from '../deliveries/types.js'
import { retryAfterSeconds } from '../upstream/classify.js'
import { type EndpointRules, endpointFormRefusal, guardedLookup } from './endpoint-guard.js'
import { isTerminal, type PushMessage } from './message.js'
import type { PushSubscriptions, StoredSubscription } from './subscriptions.js'

export interface SenderOptions {
  publicKey: string
  signingKey: KeyObject
  subject: string
  ttlS: number
  rules: EndpointRules
  /** Deadline of one attempt. */
  timeoutMs: number
  clock: Clock
  log: FastifyBaseLogger
  store: PushSubscriptions
}

/** A VAPID token lives at most this long (RFC 8292 allows 24 hours; some services refuse more than 12). */
const JWT_LIFETIME_S = 12 * 60 * 60

/** A delivery's target: the order and the subscription's id, never its endpoint. */
export const targetOf = (orderId: string, subscriptionId: string) => `${orderId} ${subscriptionId}`
const parseTarget = (target: string) => {
  const [orderId = '', id = ''] = target.split(' ')
  return { orderId, id }
}

export class PushSender {
  private readonly dispatcher: Agent

  constructor(private readonly options: SenderOptions) {
    this.dispatcher = new Agent({
      connect: { lookup: guardedLookup(options.rules), timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    })
  }

  close(): Promise<void> {
    return this.dispatcher.close()
  }

  async send(delivery: Delivery): Promise<AttemptOutcome> {
    const { orderId, id } = parseTarget(delivery.target)
    const { store, log } = this.options
    const subscription = await store.get(orderId, id)
    if (!subscription) return { kind: 'gone', answer: 'unsubscribed' }
    const host = new URL(subscription.endpoint).host
    const message = JSON.parse(delivery.payload) as PushMessage
    const refused = endpointFormRefusal(subscription.endpoint, this.options.rules.allowLocal)
    if (refused) {
      await store.remove(orderId, id)
      log.warn({ push: { host, order: orderId.slice(0, 8) } }, `push endpoint refused: ${refused}`)
      return { kind: 'gone', answer: `endpoint refused: ${refused}` }
    }
    let status: number
    let retryAfter: string | undefined
    try {
      const answer = await request(subscription.endpoint, {
        dispatcher: this.dispatcher,
        method: 'POST',
        headers: await this.headersFor(subscription, message),
        body: await encryptNotification(
          { ...subscription, expirationTime: null },
          new TextEncoder().encode(delivery.payload),
        ),
      })
      await answer.body.dump()
      status = answer.statusCode
      const header = answer.headers['retry-after']
      retryAfter = Array.isArray(header) ? header[0] : header
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'error'
      log.warn({ push: { host, order: orderId.slice(0, 8), error: code } }, 'push not sent: will try again')
      return { kind: 'retry', answer: code }
    }
    const answer = String(status)
    if (status >= 200 && status < 300) {
      if (isTerminal(message.status)) await store.remove(orderId, id)
      return { kind: 'delivered', answer }
    }
    if (status === 404 || status === 410) {
      await store.remove(orderId, id)
      log.info({ push: { host, order: orderId.slice(0, 8), status } }, 'push subscription gone: deleted')
      return { kind: 'gone', answer }
    }
    const seconds = retryAfterSeconds(retryAfter, this.options.clock.now())
    log.warn({ push: { host, order: orderId.slice(0, 8), status } }, 'push refused: will try again')
    return { kind: 'retry', answer, ...(seconds === undefined ? {} : { retryAfterMs: seconds * 1000 }) }
  }

  private async headersFor(subscription: StoredSubscription, message: PushMessage) {
    const { publicKey, signingKey, subject, ttlS, clock } = this.options
    const jwt = await new SignJWT({ sub: subject })
      .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
      .setAudience(new URL(subscription.endpoint).origin)
      .setExpirationTime(Math.floor(clock.now() / 1000) + JWT_LIFETIME_S)
      .sign(signingKey)
    return {
      authorization: `vapid t=${jwt}, k=${publicKey}`,
      'content-encoding': 'aes128gcm',
      'content-type': 'application/octet-stream',
      ttl: String(ttlS),
      // One topic per order (its uuid's 32 hex digits): a newer status replaces an undelivered older one.
      topic: message.orderId.replaceAll('-', '').slice(0, 32),
      urgency: isTerminal(message.status) ? 'high' : 'normal',
    }
  }
}
