// Our side of the wire: Server-Sent Events frames, serialised once into a Buffer so a hub can write
// the very same bytes to every client of an order or a quote.

export interface EventFrame {
  event: string
  /** Absent: the event leaves the client's last event id as it was. */
  id?: string
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
  for (const line of frame.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`
  return Buffer.from(`${text}\n`)
}

/** A comment: ignored by EventSource, but it keeps proxies and idle timers from closing the stream. */
export function commentFrame(text: string): Buffer {
  return Buffer.from(`: ${oneLine(text)}\n\n`)
}
