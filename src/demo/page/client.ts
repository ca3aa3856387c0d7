/// <reference lib="dom" />
// The typed client as the demo page uses it, and the page's settings read from its <body>.
import { createGatewayClient, type GatewayClient } from 'swap-gateway-client'

export type Client = GatewayClient

export interface PageSettings {
  /** The gateway's origin when the page is served from another one; empty on the gateway itself. */
  baseUrl: string
  apiPrefix: string
  /** The sandbox's control routes (absolute), when the gateway runs in front of the sandbox. */
  sandboxUrl: string | undefined
}

export function pageSettings(data: DOMStringMap): PageSettings {
  const baseUrl = data.gateway ?? ''
  return {
    baseUrl,
    apiPrefix: data.apiPrefix ?? '/api',
    sandboxUrl: data.sandbox === undefined ? undefined : `${baseUrl}${data.sandbox}`,
  }
}

export function clientFor(settings: PageSettings): Client {
  return createGatewayClient({
    ...(settings.baseUrl ? { baseUrl: settings.baseUrl } : {}),
    apiPrefix: settings.apiPrefix,
    // A page on another origin sends the session cookie only when asked to.
    credentials: settings.baseUrl ? 'include' : 'same-origin',
  })
}

/** A fresh Idempotency-Key; randomUUID exists only in secure contexts (https, localhost). */
export function newKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(
    '',
  )
}
