// P-256 public keys as Web Push writes them (the VAPID key, a browser's p256dh): the base64url of the
// uncompressed point (0x04, x, y). Node's crypto takes and gives them as JWKs.
import type { JsonWebKey } from 'node:crypto'

/** The point of an EC public JWK (its x and y, which such a JWK always has). */
export const pointOfJwk = (jwk: JsonWebKey): string =>
  Buffer.concat([
    Buffer.from([4]),
    Buffer.from(jwk.x!, 'base64url'),
    Buffer.from(jwk.y!, 'base64url'),
  ]).toString('base64url')

/** The public JWK of a point; undefined when the text is not 65 bytes starting 0x04 (on the curve or not). */
export function jwkOfPoint(text: string): JsonWebKey | undefined {
  const point = Buffer.from(text, 'base64url')
  if (point.length !== 65 || point[0] !== 4) return undefined
  return {
    kty: 'EC',
    crv: 'P-256',
    x: point.subarray(1, 33).toString('base64url'),
    y: point.subarray(33).toString('base64url'),
  }
}
