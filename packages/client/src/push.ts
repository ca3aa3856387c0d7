// Web Push for an order: the browser's push subscription (a service worker registration's
// PushManager) handed to the gateway, which then pushes the order's status changes to it, read by the
// service worker even when no page is open. The three operations as plain methods, and the two steps a
// page takes: subscribe (key, browser subscription, POST) and unsubscribe.
import type { Call } from './http.js'
import { clientProblem, GatewayProblem, type ClientMethod } from './problem.js'
import type { PushPublicKey, PushSubscribed, PushSubscriptionBody } from './types.js'

/** The part of a browser's `PushSubscription` used here: a real one fits. */
export interface BrowserPushSubscription {
  readonly endpoint: string
  readonly options: { readonly applicationServerKey: ArrayBuffer | null }
  toJSON(): { endpoint?: string; expirationTime?: number | null; keys?: Record<string, string> }
  unsubscribe(): Promise<boolean>
}

/** The part of a `ServiceWorkerRegistration` used here: a real one fits. */
export interface PushRegistration {
  readonly pushManager: {
    getSubscription(): Promise<BrowserPushSubscription | null>
    subscribe(options: {
      userVisibleOnly: boolean
      applicationServerKey: ArrayBuffer
    }): Promise<BrowserPushSubscription>
  }
}

export interface PushMethods {
  /** The gateway's VAPID public key (base64url), the `applicationServerKey` of a subscription. */
  getPushPublicKey(): Promise<PushPublicKey>
  /**
   * Hands a subscription (`PushSubscription.toJSON()`) to the gateway; the same endpoint again replaces
   * its keys. Resolves to the order's id and status now.
   */
  subscribeOrderPush(uuid: string, subscription: PushSubscriptionBody): Promise<PushSubscribed>
  /** Forgets the endpoint for that order; resolves whether or not it was subscribed. */
  unsubscribeOrderPush(uuid: string, endpoint: string): Promise<void>
  /**
   * The order's status changes pushed to this browser: the gateway's key, the registration's push
   * subscription (the existing one when it was made with the same key), handed to the gateway.
   * Resolves to the browser's subscription. The browser asks the user for permission if it has not
   * been given; a refusal rejects with `PUSH_REFUSED` (the browser's error as `cause`).
   */
  subscribeToOrderPush(uuid: string, registration: PushRegistration): Promise<BrowserPushSubscription>
  /**
   * No more pushes about that order to this browser. The browser's subscription stays (other orders
   * may use it): `(await registration.pushManager.getSubscription())?.unsubscribe()` ends them all.
   */
  unsubscribeFromOrderPush(uuid: string, registration: PushRegistration): Promise<void>
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

/** base64url (or base64) to bytes, by hand: React Native has no `atob` in every release. */
function fromBase64Url(text: string): ArrayBuffer {
  const digits = text.replace(/=+$/, '').replaceAll('+', '-').replaceAll('/', '_')
  const bytes = new Uint8Array(Math.floor((digits.length * 6) / 8))
  let value = 0
  let bits = 0
  let at = 0
  for (const ch of digits) {
    const digit = BASE64URL.indexOf(ch)
    if (digit < 0) throw new TypeError('The push public key is not base64url.')
    value = ((value << 6) | digit) & 0xfff
    bits += 6
    if (bits >= 8) {
      bits -= 8
      bytes[at++] = (value >> bits) & 0xff
    }
  }
  return bytes.buffer
}

function sameBytes(a: ArrayBuffer | null, b: ArrayBuffer): boolean {
  if (a === null || a.byteLength !== b.byteLength) return false
  const x = new Uint8Array(a)
  const y = new Uint8Array(b)
  return x.every((byte, i) => byte === y[i])
}

/** The browser's refusal (permission denied, no push service, no active worker) as a problem. */
function refused(err: unknown, method: ClientMethod): GatewayProblem {
  const name = err instanceof Error ? err.name : 'Error'
  const message = err instanceof Error ? err.message : String(err)
  return clientProblem(
    'PUSH_REFUSED',
    `The browser did not subscribe to push: ${name}: ${message}`,
    { status: 0, requestId: '', method },
    err,
  )
}

/** The push methods of a client, over its `call` (the session, the re-sign after a lapse). */
export function pushMethods(call: <T>(spec: Call) => Promise<T>): PushMethods {
  const subscriptionsOf = (uuid: string) => `/v1/orders/${encodeURIComponent(uuid)}/push-subscriptions`
  const publicKey = (operation: ClientMethod) =>
    call<PushPublicKey>({ operation, path: '/v1/push/public-key' })
  const post = (operation: ClientMethod, uuid: string, body: PushSubscriptionBody) =>
    call<PushSubscribed>({ operation, method: 'POST', path: subscriptionsOf(uuid), body })
  const remove = (operation: ClientMethod, uuid: string, endpoint: string) =>
    call<void>({ operation, method: 'DELETE', path: subscriptionsOf(uuid), query: { endpoint } })

  return {
    getPushPublicKey: () => publicKey('getPushPublicKey'),
    subscribeOrderPush: (uuid, subscription) => post('subscribeOrderPush', uuid, subscription),
    unsubscribeOrderPush: (uuid, endpoint) => remove('unsubscribeOrderPush', uuid, endpoint),

    async subscribeToOrderPush(uuid, registration) {
      const method = 'subscribeToOrderPush'
      const key = fromBase64Url((await publicKey(method)).publicKey)
      let subscription: BrowserPushSubscription
      try {
        const existing = await registration.pushManager.getSubscription()
        if (existing && sameBytes(existing.options.applicationServerKey, key)) subscription = existing
        else {
          // A subscription made with another key (a rotated one) cannot be subscribed over.
          await existing?.unsubscribe()
          subscription = await registration.pushManager.subscribe({
            userVisibleOnly: true,
            applicationServerKey: key,
          })
        }
      } catch (err) {
        throw refused(err, method)
      }
      await post(method, uuid, subscription.toJSON() as PushSubscriptionBody)
      return subscription
    },

    async unsubscribeFromOrderPush(uuid, registration) {
      const subscription = await registration.pushManager.getSubscription()
      if (subscription) await remove('unsubscribeFromOrderPush', uuid, subscription.endpoint)
    },
  }
}
