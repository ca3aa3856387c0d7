/// <reference lib="dom" />
// The demo page's entry: reads the page's settings, builds the typed client and wires the parts.
import type { Eip1193Provider } from 'swap-gateway-client'
import { Alerts } from './alert.js'
import { clientFor, pageSettings } from './client.js'
import { HistoryList } from './history-list.js'
import { OrderView } from './order-view.js'
import { SandboxPanel } from './sandbox-panel.js'
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
const orders = new OrderView(client, alerts, sandbox)
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
void orders.resume()
