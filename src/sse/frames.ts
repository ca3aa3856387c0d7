// Our side of the wire: Server-Sent Events frames, serialised once into a Buffer so a hub can write
// the very same bytes to every client of an order or a quote.
import { EVENT_TAG } from './event-tag.js'

export interface EventFrame {
  event: string
  /** Absent: the event leaves the client's last event id as it was. */
  id?: string
  /** A JSON object's text; the frame adds the event's name to it (event-tag.ts). */
  data: string
  /** Reconnection delay advice for the client, in ms. */
  retry?: number
}

/** An SSE field value may not contain a line break; ids and names never legitimately do. */
const oneLine = (value: string) => value.replace(/[\r\n]/g, '')

export function eventFrame(frame: EventFrame): Buffer {
  let text = frame.retry === undefined ? '' : `retry: ${frame.retry}\n`
  text += `event: ${oneLine(frame.event)}\n`
  if (frame.id !== undefined) text += `id: ${oneLine(frame.id)}\n`
  // A line break inside the data becomes a further data line; the client joins them back with "\n".
  for (const line of tagged(frame.event, frame.data).split(/\r\n|\r|\n/)) text += `data: ${line}\n`
  return Buffer.from(`${text}\n`)
}

/**
 * The object with the event's name as its last member: spliced into the text, so data the gateway
 * already holds as bytes (the order read) is not parsed again; last, so it wins over any member of
 * the same name the data might carry.
 */
function tagged(event: string, data: string): string {
  const close = data.lastIndexOf('}')
  const members = data.slice(0, close).trimEnd()
  if (close === -1 || !members.trimStart().startsWith('{'))
    throw new Error(`${event}: event data must be a JSON object`)
  const tag = `${JSON.stringify(EVENT_TAG)}:${JSON.stringify(event)}`
  return `${members}${members.endsWith('{') ? '' : ','}${tag}${data.slice(close)}`
}

/** A comment: ignored by EventSource, but it keeps proxies and idle timers from closing the stream. */
export function commentFrame(text: string): Buffer {
  return Buffer.from(`: ${oneLine(text)}\n\n`)
}
