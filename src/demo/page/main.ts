/// <reference lib="dom" />
// The demo page's entry: reads the page's settings, builds the typed client and wires the parts.
import type { Eip1193Provider } from 'swap-gateway-client'
import { Alerts } from './alert.js'
import { clientFor, pageSettings } from './client.js'
import { HistoryList } from './history-list.js'
import { NotifyMe } from './notify-me.js'
import { OrderView } from './order-view.js'
import { SandboxPanel } from './sandbox-panel.js'
import type { ShowOrderMessage } from './service-worker.js'
import { prefillOf, SwapForm } from './swap-form.js'
import { WalletView } from './wallet.js'

const settings = pageSettings(document.body.dataset)
const client = clientFor(settings)
const alerts = new Alerts()
const provider = (window as { ethereum?: Eip1193Provider }).ethereum

const sandbox = settings.sandboxUrl === undefined ? undefined : new SandboxPanel(settings.sandboxUrl, alerts)
let signedIn = false
const history: HistoryList = new HistoryList(
  client,
  alerts,
  (order) => orders.show(order),
  () => wallet.refresh(),
)
const notify = new NotifyMe(client, alerts, settings.baseUrl === '')
const orders = new OrderView(client, alerts, sandbox, notify)
const wallet = new WalletView(client, alerts, provider, (now) => {
  signedIn = now
  if (now) history.follow()
  else history.hide()
})
const form = new SwapForm(client, alerts, (order) => {
  orders.show(order)
  if (signedIn) history.upsert(order)
})

void wallet.refresh()
void form.load(prefillOf(location.search))
// `?order=<uuid>`: the link a notification opens (an open demo tab is sent the uuid instead).
const linked = new URLSearchParams(location.search).get('order')
void (linked ? orders.open(linked) : orders.resume())
if ('serviceWorker' in navigator) {
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent<Partial<ShowOrderMessage>>) => {
    if (event.data.type === 'show-order' && typeof event.data.orderId === 'string')
      void orders.open(event.data.orderId)
  })
}
