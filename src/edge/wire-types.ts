// How schemas show in the OpenAPI document, beside what they validate. Query and path parameters
// arrive as text, and their zod schemas parse that text (a token id is a string of digits turned into
// a number): `onTheWire` records what the text stands for, so the document shows a client the
// parameter's real type and a generated client sends it as such. `builtOn` makes a named schema that
// adds fields to another: validation checks one flat object, and the document says `allOf` the named
// base and the additions, so generators type it as the base plus those fields, not as a copy.
import { z } from 'zod'

/** The JSON Schema of a parameter as a client should type it. */
export type WireType = { type: 'integer' | 'number' | 'boolean' | 'string' } & Record<string, unknown>

/** The metadata keys the document builder reads (docs/json-schema.ts). */
export const WIRE_KEY = 'wireType'
export const BASE_KEY = 'builtOn'

export interface BaseSchema {
  /** The base's component name. */
  id: string
  /** The base's fields, which the document leaves to it. */
  keys: string[]
}

export const onTheWire = <T extends z.ZodType>(schema: T, wire: WireType): T =>
  schema.meta({ [WIRE_KEY]: wire })

/** A named schema made of a named base and more fields (none: the same body under another name). */
export function builtOn<
  Shape extends z.ZodRawShape,
  Config extends z.core.$ZodObjectConfig,
  S extends z.ZodRawShape,
>(base: z.ZodObject<Shape, Config>, shape: S, meta: { id: string; description: string }) {
  const id = z.globalRegistry.get(base)?.id
  if (!id) throw new Error(`builtOn(${meta.id}): the base schema has no id`)
  const builtOn: BaseSchema = { id, keys: Object.keys(base.shape) }
  return base.extend(shape).meta({ ...meta, [BASE_KEY]: builtOn })
}

/** The bounds `documented` can show. */
export type DocumentedBounds = Partial<
  Record<'maxLength' | 'minLength' | 'maxItems' | 'minimum' | 'maximum' | 'maxProperties', number>
> & { format?: string }

/**
 * Bounds the document shows but validation does not check: on the upstream's bodies, which the
 * gateway passes through and whose spec gives no limits. They tell a client what to expect; a value
 * beyond them is still a valid answer of the upstream and is passed on, never refused. Inputs carry
 * checked bounds (`.max()`, `.int()`...) instead.
 */
export const documented = <T extends z.ZodType>(schema: T, bounds: DocumentedBounds): T => schema.meta(bounds)

/** The upstream's ids (tokens, chains, orders): integers it gives no range for, taken as positive int32. */
export const ID_MAX = 2_147_483_647
