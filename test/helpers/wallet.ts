// A fresh wallet for a test: a viem private-key account, as a user's wallet signs.
import type { PrivateKeyAccount } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'

export const newWallet = (): PrivateKeyAccount => privateKeyToAccount(generatePrivateKey())
