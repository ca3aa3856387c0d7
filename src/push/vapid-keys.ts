// The VAPID key pair (RFC 8292) in the forms Web Push uses: the public key as the base64url of its
// uncompressed P-256 point (what a page passes to PushManager.subscribe), the private key as the
// base64url of its scalar (a JWK's `d`). Node's own crypto makes and checks them.
import { createECDH, createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto'
import { jwkOfPoint, pointOfJwk } from './p256-point.js'

export interface VapidKeys {
  publicKey: string
  privateKey: string
}

const keysOf = (key: KeyObject): VapidKeys => {
  const jwk = key.export({ format: 'jwk' })
  return { publicKey: pointOfJwk(jwk), privateKey: jwk.d! }
}

/** A fresh pair. */
export const generateVapidKeys = (): VapidKeys =>
  keysOf(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey)

/** The private key as a signing key, given its public key: undefined when the two are not a P-256 pair. */
export function vapidSigningKey(keys: VapidKeys): KeyObject | undefined {
  const jwk = jwkOfPoint(keys.publicKey)
  if (!jwk) return undefined
  try {
    // The public key made from the private one: a JWK's own x and y are not checked against its d.
    const ecdh = createECDH('prime256v1')
    ecdh.setPrivateKey(Buffer.from(keys.privateKey, 'base64url'))
    if (!ecdh.getPublicKey().equals(Buffer.from(keys.publicKey, 'base64url'))) return undefined
    return createPrivateKey({ format: 'jwk', key: { ...jwk, d: keys.privateKey } })
  } catch {
    return undefined
  }
}
