// `npm run vapid-keys`: prints a fresh VAPID key pair as the environment lines Web Push reads.
import { generateVapidKeys } from '../push/vapid-keys.js'

const keys = generateVapidKeys()
process.stdout.write(`WEB_PUSH_PUBLIC_KEY=${keys.publicKey}\nWEB_PUSH_PRIVATE_KEY=${keys.privateKey}\n`)
