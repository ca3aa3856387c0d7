// `npm start` without SESSION_SECRET, started twice: the session token the first process issued is
// still a session for the second, sealed with the checkout's development secret (a git-ignored file
// the warning names). Production still refuses to start without SESSION_SECRET (server.test.ts).
import t, { type Test } from 'tap'
import { createGatewayClient } from 'swap-gateway-client'
import { runGateway } from '../helpers/process.js'
import { newWallet } from '../helpers/wallet.js'

async function start(t: Test) {
  const gw = runGateway({ PORT: '0', HOST: '127.0.0.1' })
  t.teardown(() => gw.child.kill('SIGKILL'))
  const listening = await gw.waitFor((l) => String(l.msg).startsWith('Server listening'))
  const url = String(listening.msg).match(/http:\/\/127\.0\.0\.1:\d+/)?.[0]
  if (!url) throw new Error('no listening address logged')
  return { gw, url }
}

t.test('a restart in development keeps the session tokens it issued', async (t) => {
  const first = await start(t)
  const warning = first.gw.lines.find((l) => typeof l.sessionSecretFile === 'string')
  t.match(
    warning?.msg,
    /SESSION_SECRET is not set: .*development secret, kept in .*\.dev-session-secret \(git-ignored\)/,
  )
  t.match(warning?.msg, /production requires SESSION_SECRET/)

  const account = newWallet()
  const wallet = {
    address: account.address,
    chainId: 1,
    signMessage: (message: string) => account.signMessage({ message }),
  }
  const { sessionToken } = await createGatewayClient({ baseUrl: first.url, wallet }).signIn()
  t.type(sessionToken, 'string')
  first.gw.child.kill('SIGTERM')
  await first.gw.exited

  const second = await start(t)
  // The built-in sandbox restarted too and forgot its own sign-in: the gateway still knows the session
  // and whose it is (not `{ signedIn: false }`, a stranger), and asks that wallet to sign once more.
  const session = await createGatewayClient({ baseUrl: second.url, sessionToken }).getSession()
  t.match(session, { address: account.address, chainId: '1' }, 'the stored token is still this session')
  let signatures = 0
  const restarted = createGatewayClient({
    baseUrl: second.url,
    sessionToken,
    wallet: { ...wallet, signMessage: (message) => (signatures++, wallet.signMessage(message)) },
  })
  t.type((await restarted.getMe()).id, 'string', 'signed in again')
  t.ok(signatures <= 1, 'with at most one signature')
})
