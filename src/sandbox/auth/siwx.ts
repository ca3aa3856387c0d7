// SIWX verification in the upstream's order of checks: body shape (generic 500), the `Nonce:`
// line, the nonce itself, then the EVM personal-sign signature over the whole message. Only a
// success uses the nonce up, so a wallet can retry a failed signature with the same challenge.
import { isAddress, isHex, verifyMessage } from 'viem'
import { z } from 'zod'
import { genericServerError, unauthorized } from '../envelopes.js'
import type { Nonces } from './nonces.js'

const verifyBodySchema = z.object({
  data: z.object({
    // The spec types chainId as a string; a number is taken as its decimal text.
    chainId: z.union([z.string().min(1), z.number()]).transform(String),
    accountAddress: z.string().min(1),
  }),
  message: z.string().min(1),
  signature: z.string().min(1),
})
export type VerifyBody = z.output<typeof verifyBodySchema>

const NONCE_LINE = /^Nonce:[ \t]*(\S+)[ \t\r]*$/m

async function signatureProblem(
  address: string,
  message: string,
  signature: string,
): Promise<string | undefined> {
  if (!isAddress(address, { strict: false })) return `invalid account address ${address}`
  if (!isHex(signature)) return 'signature is not a hex string'
  try {
    const valid = await verifyMessage({ address, message, signature })
    return valid ? undefined : 'signature does not match the account address'
  } catch (error) {
    const shortMessage = (error as { shortMessage?: unknown }).shortMessage
    return typeof shortMessage === 'string' ? shortMessage : 'malformed signature'
  }
}

/** Checks a verify body; returns the checked fields and the nonce to consume on success. */
export async function checkSignIn(body: unknown, nonces: Nonces): Promise<VerifyBody & { nonce: string }> {
  const parsed = verifyBodySchema.safeParse(body)
  if (!parsed.success) throw genericServerError()
  const { data, message, signature } = parsed.data
  const nonce = NONCE_LINE.exec(message)?.[1]
  if (nonce === undefined) throw unauthorized('Nonce not found in the message.')
  if (!nonces.isLive(nonce)) throw unauthorized('Invalid or expired nonce.')
  const problem = await signatureProblem(data.accountAddress, message, signature)
  if (problem !== undefined) throw unauthorized(`EVM signature verification failed: ${problem}`)
  return { ...parsed.data, nonce }
}
