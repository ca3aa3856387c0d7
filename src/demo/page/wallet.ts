/// <reference lib="dom" />
// Sign-in with the browser's wallet (window.ethereum, EIP-1193): the address and the session's time
// left, a new signature when the session has lapsed, sign-out. Without a wallet the page still swaps.
import type { Eip1193Provider, SessionView } from 'swap-gateway-client'
import type { Alerts } from './alert.js'
import type { Client } from './client.js'
import { byId, el } from './dom.js'
import { duration, shortAddress } from './format.js'

/** Errors that a session cures: shown by any part of the page, they go once the wallet signs in. */
const CURED_BY_SIGN_IN: ReadonlySet<string> = new Set([
  'AUTH_REQUIRED',
  'SESSION_EXPIRED',
  'SIGNATURE_INVALID',
  'NONCE_INVALID',
  'NONCE_MISSING',
  'COOKIE_NOT_KEPT',
  'WALLET_REJECTED',
])

export class WalletView {
  private readonly state = byId('wallet-state')
  private readonly signInButton = byId<HTMLButtonElement>('sign-in')
  private readonly signOutButton = byId<HTMLButtonElement>('sign-out')
  private session: SessionView = { signedIn: false }
  private timeLeft: HTMLElement | undefined

  constructor(
    private readonly client: Client,
    private readonly alerts: Alerts,
    private readonly provider: Eip1193Provider | undefined,
    /** Told whenever the signed-in user may have changed. */
    private readonly onChange: (signedIn: boolean) => void,
  ) {
    this.signInButton.addEventListener('click', () => void this.signIn())
    this.signOutButton.addEventListener('click', () => void this.signOut())
    setInterval(() => this.tick(), 1000)
  }

  /** Reads the session again (after a call that may have signed in again by itself). */
  async refresh(): Promise<void> {
    const was = this.session.signedIn
    try {
      this.session = await this.client.getSession()
      this.alerts.clear('session')
      // Signed in (a re-sign by the client after a lapse included): what a session cures is gone.
      if (this.session.signedIn) this.alerts.clearCodes(CURED_BY_SIGN_IN)
    } catch (err) {
      this.alerts.show('session', err)
    }
    this.render()
    if (this.session.signedIn !== was) this.onChange(this.session.signedIn)
  }

  private async signIn(): Promise<void> {
    if (!this.provider) return
    this.signInButton.disabled = true
    try {
      await this.client.signIn(this.provider)
      this.alerts.clear('sign-in')
      this.alerts.clearCodes(CURED_BY_SIGN_IN)
    } catch (err) {
      // Under its own name: reading the session below must not clear why signing in failed.
      this.alerts.show('sign-in', err)
    } finally {
      this.signInButton.disabled = false
    }
    await this.refresh()
  }

  private async signOut(): Promise<void> {
    try {
      await this.client.logout()
      this.alerts.clear('sign-in')
    } catch (err) {
      this.alerts.show('sign-in', err)
    }
    await this.refresh()
  }

  private render(): void {
    const { signedIn } = this.session
    const expired = !this.session.signedIn && this.session.expired === true
    const address = this.session.signedIn || this.session.expired ? this.session.address : undefined
    this.timeLeft = undefined
    this.signOutButton.hidden = !signedIn && !expired
    this.signInButton.hidden = signedIn
    this.signInButton.disabled = !this.provider
    this.signInButton.title = this.provider ? '' : 'No wallet found in this browser'
    if (signedIn && address) {
      this.timeLeft = el('span', { class: 'mono' })
      this.state.replaceChildren(
        el('strong', { title: address }, shortAddress(address)),
        ' · session ',
        this.timeLeft,
        ' left',
      )
      this.tick()
    } else if (expired && address) {
      this.state.replaceChildren(
        el('span', { class: 'lapsed' }, 'Session lapsed'),
        ' for ',
        el('strong', { title: address }, shortAddress(address)),
        ': sign again',
      )
    } else {
      this.state.textContent = this.provider
        ? 'Not signed in'
        : 'No wallet found: swaps work without signing in'
    }
  }

  private tick(): void {
    const expiresAt = this.session.signedIn ? this.session.expiresAt : undefined
    if (!this.timeLeft || !expiresAt) return
    const left = Date.parse(expiresAt) - Date.now()
    if (left > 0) {
      this.timeLeft.textContent = duration(left)
      return
    }
    // Lapsed while the page was open: the gateway says so too (expired: true), and offers a new signature.
    this.timeLeft = undefined
    void this.refresh()
  }
}
