// Event ids say whether the event delivered a terminal status, so that a reconnect's Last-Event-ID
// tells any instance of a fleet, with no shared memory, whether that client already has the end (204
// stops its EventSource) or missed it (it gets the snapshot and the terminal update). Clients treat
// ids as opaque: the mark is a suffix on the id the event would have had (the upstream's, or the
// moment of our read).
import { type OrderStatus, TERMINAL_STATUSES } from '../upstream/schemas.js'

const END_MARK = '.end'

export function eventId(base: string, status: OrderStatus): string {
  return TERMINAL_STATUSES.has(status) ? `${base}${END_MARK}` : base
}

/** Whether the stream a client reconnects from had delivered its order's terminal status. */
export function deliveredEnd(lastEventId: string): boolean {
  return lastEventId.trim().endsWith(END_MARK)
}
