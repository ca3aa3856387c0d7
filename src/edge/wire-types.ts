// Query and path parameters arrive as text, and their zod schemas parse that text (a token id is a
// string of digits turned into a number). `onTheWire` records what the text stands for, so the
// OpenAPI document shows a client the parameter's real type (an integer, a number, a boolean) and a
// generated client sends it as such; validation itself is unchanged.
import type { z } from 'zod'

/** The JSON Schema of a parameter as a client should type it. */
export type WireType = { type: 'integer' | 'number' | 'boolean' | 'string' } & Record<string, unknown>

/** The metadata key the document builder reads (ops/docs/json-schema.ts). */
export const WIRE_KEY = 'wireType'

export const onTheWire = <T extends z.ZodType>(schema: T, wire: WireType): T =>
  schema.meta({ [WIRE_KEY]: wire })
