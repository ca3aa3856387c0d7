// Orders this gateway created, told to whoever follows them from a layer above (the watch) without
// orders knowing who: a fresh 201 fires once; a replayed Idempotency-Key fires nothing.
export interface CreatedOrder {
  /** The 201's body as sent: the upstream's order and its two tokens. */
  body: string
  /** When the upstream answered (epoch ms). */
  at: number
}

export type CreationListener = (created: CreatedOrder) => void

export class OrderCreations {
  private readonly listeners: CreationListener[] = []

  subscribe(listener: CreationListener): void {
    this.listeners.push(listener)
  }

  /** Never throws and never waits: the client's answer does not depend on who listens. */
  fire(created: CreatedOrder): void {
    for (const listener of this.listeners) listener(created)
  }
}
