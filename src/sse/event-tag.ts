// Every event's data names its event in `event`, as its SSE `event` field does: generators type a
// stream from its data alone (they read neither `x-events` nor the event field), so the name inside
// the data is what lets a generated client tell one event's data from another's. Additive: no
// upstream body documents a member of that name.
import { z } from 'zod'

export const EVENT_TAG = 'event'

/** The tag's member, for an event's data schema. */
export const eventTag = <N extends string>(name: N) => ({
  [EVENT_TAG]: z
    .literal(name)
    .describe(`\`${name}\`: the name of this event, as in its SSE \`event\` field.`),
})
