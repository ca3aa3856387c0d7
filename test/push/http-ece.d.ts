// The part of http_ece (no types of its own) the push service double uses.
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto'
  const ece: {
    decrypt(body: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: Buffer }): Buffer
  }
  export default ece
}
