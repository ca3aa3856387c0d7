// Users known to one sandbox instance, one per wallet address, created at first sign-in. The id
// is what orders carry as `userId`, so it must stay the same for the same address.
import { randomUUID } from 'node:crypto'
import { getAddress } from 'viem'
import type { SandboxClock } from '../clock.js'

export interface User {
  id: string
  address: string
  createdAt: string
}

export class UserStore {
  private readonly byAddress = new Map<string, User>()

  constructor(private readonly clock: SandboxClock) {}

  /** The user of this address, created on first sight. */
  forAddress(address: string): User {
    const checksummed = getAddress(address)
    const key = checksummed.toLowerCase()
    let user = this.byAddress.get(key)
    if (!user) {
      user = { id: randomUUID(), address: checksummed, createdAt: new Date(this.clock.now()).toISOString() }
      this.byAddress.set(key, user)
    }
    return user
  }
}
