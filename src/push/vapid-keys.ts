// The VAPID key pair (RFC 8292) in the forms Web Push uses: the public key as the base64url of its
// uncompressed P-256 point (what a page passes to PushManager.subscribe), the private key as the
// base64url of its scalar (a JWK's `d`). Node's own crypto makes and checks them.
import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto'

export interface VapidKeys {
  publicKey: string
  privateKey: string
}

const pointOf = (jwk: { x?: string; y?: string }): string =>
  Buffer.concat([
    Buffer.from([4]),
    Buffer.from(jwk.x ?? '', 'base64url'),
    Buffer.from(jwk.y ?? '', 'base64url'),
  ]).toString('base64url')

const keysOf = (key: KeyObject): VapidKeys => {
  const jwk = key.export({ format: 'jwk' })
  return { publicKey: pointOf(jwk), privateKey: jwk.d ?? '' }
}

/** A fresh pair. */
export const generateVapidKeys = (): VapidKeys =>
  keysOf(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey)

/** The private key as a signing key, given its public key: undefined when the two are not a P-256 pair. */
export function vapidSigningKey(keys: VapidKeys): KeyObject | undefined {
  const point = Buffer.from(keys.publicKey, 'base64url')
  if (point.length !== 65 || point[0] !== 4) return undefined
  try {
    const key = createPrivateKey({
      format: 'jwk',
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: point.subarray(1, 33).toString('base64url'),
        y: point.subarray(33).toString('base64url'),
        d: keys.privateKey,
      },
    })
    return keysOf(key).publicKey === keys.publicKey ? key : undefined
  } catch {
    return undefined
  }
}
