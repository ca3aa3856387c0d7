// The live quote's events, as data: `quote` carries the quote as the quote route answers it plus the
// moment it was priced; `problem` the problem document of a refresh that failed.
import { z } from 'zod'
import { problemSchema } from '../edge/problem-schema.js'
import { builtOn } from '../edge/wire-types.js'
import { quoteSchema } from '../upstream/schemas.js'

export const QUOTE_EVENT = 'quote'
export const PROBLEM_EVENT = 'problem'
/**
 * The last event id of a stream that reached QUOTE_STREAM_MAX_MS: a browser reconnecting with it is
 * answered 204, which stops its EventSource (a quote watched that long is a forgotten tab).
 */
export const ENDED_ID = 'quote-stream-ended'

export const liveQuoteEvent = builtOn(
  quoteSchema,
  {
    quotedAt: z
      .string()
      .describe('ISO 8601 UTC: when the gateway last had this price from the swap service.'),
  },
  {
    id: 'LiveQuote',
    description: 'The `quote` event: the quote as the quote route answers it, and when it was priced.',
  },
)

export const problemEvent = problemSchema
