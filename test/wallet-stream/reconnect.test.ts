// Reconnecting with Last-Event-ID to the one instance that holds the log in its memory (resume.ts).
import t from 'tap'
import { RETAIN_MS, reconnects } from './resume.js'
import { walletGateway } from './setup.js'

t.test(
  'a reconnect gets what it missed, or a snapshot when that is gone (one instance, memory)',
  async (t) => {
    const gw = await walletGateway(t, { env: { WALLET_EVENTS_RETAIN_MS: String(RETAIN_MS) } })
    await reconnects(t, gw, gw)
  },
)
