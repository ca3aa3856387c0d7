// A challenge's nonce is bound to the address it was issued for across a fleet: with REDIS_URL, a
// challenge answered by one instance and a verify sent to another still refuse another wallet's
// message, and the owner's message signs in there.
import t from 'tap'
import { startAuthGateway } from './client.js'
import { verifyThroughGateway } from '../helpers/sign-in.js'
import { newWallet } from '../helpers/wallet.js'

const sharedRedis = process.env.REDIS_URL
const noRedis = sharedRedis ? false : 'REDIS_URL is not set: the shared-Redis tests need a real Redis'

t.test(
  "a nonce issued for one wallet by one instance is refused in another wallet's message on another",
  { skip: noRedis },
  async (t) => {
    const a = await startAuthGateway(t, { env: { REDIS_URL: sharedRedis! } })
    const b = await startAuthGateway(t, { env: { REDIS_URL: sharedRedis!, UPSTREAM_URL: a.sandbox.url } })
    const owner = newWallet()
    const thief = newWallet()
    const issued = await a.client().get(`/api/auth/siwx/challenge?address=${owner.address}&chainId=1`)
    const message: string = issued.json.message
    const stolen = await verifyThroughGateway(
      b.client(),
      thief,
      message.replace(owner.address, thief.address),
    )
    t.equal(stolen.verify.status, 401)
    t.equal(stolen.verify.json.code, 'SIGNATURE_INVALID')
    t.match(stolen.verify.json.detail, /issued for another address/)
    const own = await verifyThroughGateway(b.client(), owner, message)
    t.equal(own.verify.status, 201, 'the owner signs in on the other instance')
  },
)
