/// <reference lib="dom" />
// The demo's service worker, served at /sw.js (scope: the whole origin, no fetch handler, so it
// changes nothing about how pages load). It shows each push the gateway sends about an order, from
// the payload alone (no fetch: a phone may wake the worker with no network worth the name), and a
// click on the notification brings the demo forward on that order.

/** What the gateway pushes about an order. */
export interface OrderPush {
  type: string
  orderId: string
  status: string
  previousStatus: string | null
  at: string
  title: string
  body: string
}

/** The page's message asking it to show an order (an open demo tab, focused by a click). */
export interface ShowOrderMessage {
  type: 'show-order'
  orderId: string
}

// The worker's globals, typed here: the webworker library cannot share a program with the DOM one.
interface ExtendableEvent extends Event {
  waitUntil(work: Promise<unknown>): void
}
interface PushEvent extends ExtendableEvent {
  readonly data: { text(): string } | null
}
interface NotificationEvent extends ExtendableEvent {
  readonly notification: Notification
}
interface WindowClient {
  readonly url: string
  focus(): Promise<WindowClient>
  postMessage(message: ShowOrderMessage): void
}
interface WorkerScope {
  readonly registration: ServiceWorkerRegistration
  readonly location: Location
  readonly clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly WindowClient[]>
    openWindow(url: string): Promise<WindowClient | null>
  }
  skipWaiting(): Promise<void>
  addEventListener(type: 'install', listener: (event: ExtendableEvent) => void): void
  addEventListener(type: 'push', listener: (event: PushEvent) => void): void
  addEventListener(type: 'notificationclick', listener: (event: NotificationEvent) => void): void
}
const worker = self as unknown as WorkerScope

/** The payload, or a plain notice when it cannot be read: every push must show something. */
function readPush(data: PushEvent['data']): Partial<OrderPush> {
  try {
    const push = JSON.parse(data?.text() ?? '') as Partial<OrderPush>
    return typeof push === 'object' && push !== null ? push : {}
  } catch {
    return {}
  }
}

worker.addEventListener('install', (event) => event.waitUntil(worker.skipWaiting()))

worker.addEventListener('push', (event) => {
  const push = readPush(event.data)
  const orderId = typeof push.orderId === 'string' ? push.orderId : undefined
  event.waitUntil(
    worker.registration.showNotification(push.title ?? 'Your swap', {
      body: push.body ?? 'The order changed: open it to see its status.',
      // One notification per order: a newer status replaces the older one, and still alerts.
      ...(orderId ? { tag: orderId, renotify: true } : {}),
      data: { orderId },
    } as NotificationOptions),
  )
})

/** The demo tab already open on this origin's page, if any. */
async function demoWindow(): Promise<WindowClient | undefined> {
  const windows = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true })
  return windows.find((w) => new URL(w.url).pathname === '/')
}

worker.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const orderId = (event.notification.data as { orderId?: string } | null)?.orderId
  const url = orderId ? `/?order=${encodeURIComponent(orderId)}` : '/'
  event.waitUntil(
    demoWindow().then((open) => {
      if (!open) return worker.clients.openWindow(url)
      // Told first: focusing can be refused (no user gesture), and the tab should show the order anyway.
      if (orderId) open.postMessage({ type: 'show-order', orderId })
      return open.focus()
    }),
  )
})
