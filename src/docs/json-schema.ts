// zod → JSON Schema for the OpenAPI document. The named schemas (`.meta({ id })`: Order, Token,
// Problem...) become components, and every body that uses them refers to them by `$ref`, so a client
// generated from the document has one named type per resource. Parameters show their wire types.
// Bodies the gateway passes through may carry fields the upstream does not document: JSON Schema
// allows them by default, and saying so (`additionalProperties: {}`) would only make generators type
// every body with an index signature, under which a misspelt field compiles. The one body whose
// fields nobody documents (swap limits) says it is open.
import { type core, z } from 'zod'
import { BASE_KEY, type BaseSchema, WIRE_KEY, type WireType } from '../edge/wire-types.js'

export type Json = Record<string, unknown>

export const COMPONENTS = '#/components/schemas/'
const TARGET = 'draft-2020-12'

const INT32 = 2_147_483_647

/**
 * An integer's format, from the bounds zod writes on every `z.int()` (the safe-integer range unless the
 * schema narrows it): `int32` when they fit in 32 bits, `int64` otherwise.
 */
function integerFormat(schema: Json): void {
  if (schema.type !== 'integer' || schema.format !== undefined) return
  const low = (schema.minimum ?? schema.exclusiveMinimum) as number | undefined
  const high = (schema.maximum ?? schema.exclusiveMaximum) as number | undefined
  const fits = low !== undefined && high !== undefined && low >= -INT32 - 1 && high <= INT32
  schema.format = fits ? 'int32' : 'int64'
}

/** A parameter parsed from text is shown as what the text stands for. */
export function tidy(ctx: { jsonSchema: core.JSONSchema.BaseSchema }): void {
  const schema = ctx.jsonSchema as Json
  if (schema.properties && isEmpty(schema.additionalProperties)) delete schema.additionalProperties
  // zod's own pattern for an ISO datetime says nothing `format` does not, in 300 characters.
  if (schema.format === 'date-time') delete schema.pattern
  const base = schema[BASE_KEY] as BaseSchema | undefined
  if (base) return replace(schema, builtOnBase(schema, base))
  const wire = schema[WIRE_KEY] as WireType | undefined
  if (wire) replace(schema, wire)
  integerFormat(schema)
}

const isEmpty = (value: unknown) =>
  typeof value === 'object' && value !== null && Object.keys(value).length === 0

function replace(schema: Json, by: Json) {
  for (const key of Object.keys(schema)) delete schema[key]
  Object.assign(schema, by)
}

/** `allOf` the base and what the schema adds to it. */
function builtOnBase(schema: Json, base: BaseSchema): Json {
  const { properties, required, type: _, [BASE_KEY]: __, ...rest } = schema
  const added = Object.entries((properties ?? {}) as Json).filter(([key]) => !base.keys.includes(key))
  const addedRequired = ((required ?? []) as string[]).filter((key) => !base.keys.includes(key))
  const ref = { $ref: `${COMPONENTS}${base.id}` }
  if (added.length === 0) return { ...rest, allOf: [ref] }
  const more = { type: 'object', properties: Object.fromEntries(added), required: addedRequired }
  return { ...rest, allOf: [ref, more] }
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
