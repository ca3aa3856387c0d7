/// <reference lib="dom" />
// "Notify me": the shown order's status changes as notifications, through Web Push, even once the
// page is closed. The browser's permission is asked on the click (never on load), the service worker
// at /sw.js shows what the gateway pushes, and each state is said in words next to the button.
import type { OrderStatus } from 'swap-gateway-client'
import type { Alerts } from './alert.js'
import type { Client } from './client.js'
import { byId } from './dom.js'

type State = 'unsupported' | 'idle' | 'asking' | 'subscribed' | 'stopped' | 'denied' | 'dismissed'

const STATE_TEXT: Record<State, string> = {
  unsupported:
    'This browser cannot show notifications from this page (on an iPhone or iPad: add the page to the Home Screen first, iOS 16.4 or later).',
  idle: 'Get a notification when the status changes, even with this page closed.',
  asking: 'Asking your browser for permission to show notifications…',
  subscribed: 'Notifications are on: you will be told when the status changes.',
  stopped: 'Notifications for this order are off.',
  denied:
    "Notifications are blocked for this site. Allow them in the browser's site settings to be notified.",
  dismissed: 'Notifications were not allowed. Press "Notify me" to be asked again.',
}

const WORKER_URL = '/sw.js'
const TERMINAL: ReadonlySet<OrderStatus> = new Set(['COMPLETED', 'ERROR', 'TIMED_OUT'])

/** Push needs a service worker and the Push API; Safari on iOS has them only for a Home Screen app. */
const supported = () => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window

export class NotifyMe {
  private readonly box = byId('notify')
  private readonly button = byId<HTMLButtonElement>('notify-me')
  private readonly text = byId('notify-state')
  private uuid: string | undefined
  /** The orders subscribed from this page since it was loaded. */
  private readonly subscribed = new Set<string>()
  /** Whether the gateway has Web Push on (its key answers): asked once, when an order is first shown. */
  private offered: Promise<boolean> | undefined

  constructor(
    private readonly client: Client,
    private readonly alerts: Alerts,
    /** The worker is served by the gateway: a page hosted on another origin cannot register it. */
    private readonly sameOrigin: boolean,
  ) {
    this.button.addEventListener('click', () => {
      if (this.uuid === undefined) return
      void (this.subscribed.has(this.uuid) ? this.unsubscribe(this.uuid) : this.subscribe(this.uuid))
    })
  }

  /** Offers notifications for `order` while it is under way, if the gateway sends any. */
  showFor(order: { uuid: string; status: OrderStatus }): void {
    const wanted = this.sameOrigin && !TERMINAL.has(order.status)
    this.offered ??= this.client.getPushPublicKey().then(
      () => true,
      () => false,
    )
    void this.offered.then((on) => (this.box.hidden = !(on && wanted)))
    // Each status update renders the order again: a state already shown for it stays.
    if (order.uuid === this.uuid && this.box.dataset.state !== undefined) return
    this.uuid = order.uuid
    if (!supported()) return this.set('unsupported')
    if (this.subscribed.has(order.uuid)) return this.set('subscribed')
    this.set(Notification.permission === 'denied' ? 'denied' : 'idle')
  }

  private set(state: State): void {
    this.text.textContent = STATE_TEXT[state]
    this.button.hidden = state === 'unsupported' || state === 'denied'
    this.button.disabled = state === 'asking'
    this.button.textContent = state === 'subscribed' ? 'Stop notifications' : 'Notify me'
    this.box.dataset.state = state
  }

  private async subscribe(uuid: string): Promise<void> {
    this.set('asking')
    const permission = await Notification.requestPermission()
    if (permission !== 'granted') return this.set(permission === 'denied' ? 'denied' : 'dismissed')
    try {
      await navigator.serviceWorker.register(WORKER_URL)
      await this.client.subscribeToOrderPush(uuid, await navigator.serviceWorker.ready)
      this.subscribed.add(uuid)
      this.alerts.clear('notify')
      if (this.uuid === uuid) this.set('subscribed')
    } catch (err) {
      this.alerts.show('notify', err)
      if (this.uuid === uuid) this.set('idle')
    }
  }

  private async unsubscribe(uuid: string): Promise<void> {
    try {
      await this.client.unsubscribeFromOrderPush(uuid, await navigator.serviceWorker.ready)
      this.subscribed.delete(uuid)
      if (this.uuid === uuid) this.set('stopped')
    } catch (err) {
      this.alerts.show('notify', err)
    }
  }
}
