// zod → JSON Schema for the OpenAPI document. The named schemas (`.meta({ id })`: Order, Token,
// Problem...) become components, and every body that uses them refers to them by `$ref`, so a client
// generated from the document has one named type per resource. Parameters show their wire types.
import { type core, z } from 'zod'
import { WIRE_KEY, type WireType } from '../../edge/wire-types.js'

export type Json = Record<string, unknown>

const COMPONENTS = '#/components/schemas/'
const TARGET = 'draft-2020-12'

/**
 * zod writes the safe-integer range on every `z.int()`: noise for a reader, already said by
 * `integer`. A parameter parsed from text is shown as what the text stands for.
 */
export function tidy(ctx: { jsonSchema: core.JSONSchema.BaseSchema }): void {
  const schema = ctx.jsonSchema as Json
  if (schema.minimum === Number.MIN_SAFE_INTEGER) delete schema.minimum
  if (schema.maximum === Number.MAX_SAFE_INTEGER) delete schema.maximum
  const wire = schema[WIRE_KEY] as WireType | undefined
  if (!wire) return
  for (const key of Object.keys(schema)) delete schema[key]
  Object.assign(schema, wire)
}

/** Every named schema, as the components of the document. */
export function componentSchemas(): Record<string, Json> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    target: TARGET,
    io: 'output',
    unrepresentable: 'any',
    uri: (id) => `${COMPONENTS}${id}`,
    override: tidy,
  })
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema: _, $id: __, ...schema }]) => [id, schema]),
  )
}

/** A body: a `$ref` to its component when it is named, else its schema, naming what it holds. */
export function bodySchema(schema: z.ZodType): Json {
  const id = z.globalRegistry.get(schema)?.id
  if (id) return { $ref: `${COMPONENTS}${id}` }
  const {
    $schema: _,
    $defs: __,
    ...json
  } = z.toJSONSchema(schema, {
    target: TARGET,
    io: 'output',
    unrepresentable: 'any',
    override: tidy,
  })
  // Named schemas inside are collected under $defs by their id: they are components here.
  return JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', `"${COMPONENTS}`)) as Json
}
