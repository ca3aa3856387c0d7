// The live quote's events, as data: `quote` carries the quote as the quote route answers it plus the
// moment it was priced; `problem` the problem document of a refresh that failed; `end` closes a stream
// that reached its longest life.
import { z } from 'zod'
import { problemSchema } from '../edge/problem-schema.js'
import { builtOn, documented } from '../edge/wire-types.js'
import { eventTag } from '../sse/event-tag.js'
import { quoteSchema } from '../upstream/schemas.js'

export const QUOTE_EVENT = 'quote'
export const PROBLEM_EVENT = 'problem'
export const END_EVENT = 'end'
/**
 * The id of the `end` event: a browser reconnecting with it as its Last-Event-ID is answered 204,
 * which stops its EventSource (a quote watched that long is a forgotten tab). The only event with an
 * id: the others leave nothing to resume.
 */
export const ENDED_ID = 'quote-stream-ended'

export const liveQuoteEvent = builtOn(
  quoteSchema,
  {
    quotedAt: documented(z.string(), { format: 'date-time', maxLength: 32 }).describe(
      'ISO 8601 UTC: when the gateway last had this price from the swap service.',
    ),
    ...eventTag(QUOTE_EVENT),
  },
  {
    id: 'LiveQuote',
    description: 'The `quote` event: the quote as the quote route answers it, and when it was priced.',
  },
)

export const problemEvent = builtOn(problemSchema, eventTag(PROBLEM_EVENT), {
  id: 'LiveQuoteProblem',
  description: 'The `problem` event: the problem document of the refresh that failed, named.',
})

export const endEvent = z
  .object({
    reason: z
      .literal('QUOTE_STREAM_MAX_MS')
      .describe('The stream reached its longest life; open a new one to go on watching.'),
    ...eventTag(END_EVENT),
  })
  .meta({
    id: 'LiveQuoteEnd',
    description: 'The `end` event: the last of a live quote stream, which the gateway then closes.',
  })
