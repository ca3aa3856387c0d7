import t from 'tap'
import { z } from 'zod'
import { CheckedBodies } from '../../src/upstream/checked-bodies.js'

const parse = (raw: Buffer): unknown => JSON.parse(raw.toString('utf8'))

/** A schema that counts how often it checks a body. */
function counted() {
  const counter = { checks: 0 }
  const schema = z.object({ status: z.string() }).refine(() => {
    counter.checks += 1
    return true
  })
  return { counter, schema }
}

const bytes = (value: unknown) => Buffer.from(JSON.stringify(value))

t.test('the same bytes again are not parsed and checked again, and give the same value', async (t) => {
  const { counter, schema } = counted()
  const checked = new CheckedBodies<z.infer<typeof schema>>(10)
  const first = checked.check('/v1/orders/a', bytes({ status: 'NEW' }), schema, parse)
  const again = checked.check('/v1/orders/a', bytes({ status: 'NEW' }), schema, parse)
  t.ok(first.success && again.success)
  t.equal(counter.checks, 1)
  t.equal(again.data, first.data, 'the value checked the first time')
})

t.test('changed bytes are checked anew; a body that fails is refused and not remembered', async (t) => {
  const { counter, schema } = counted()
  const checked = new CheckedBodies<z.infer<typeof schema>>(10)
  checked.check('/v1/orders/a', bytes({ status: 'NEW' }), schema, parse)
  const changed = checked.check('/v1/orders/a', bytes({ status: 'COMPLETED' }), schema, parse)
  t.same(changed.success && changed.data, { status: 'COMPLETED' })
  t.equal(counter.checks, 2)
  const bad = checked.check('/v1/orders/a', bytes({ status: 7 }), schema, parse)
  t.notOk(bad.success, 'a bad body after a good one is still refused')
  const back = checked.check('/v1/orders/a', bytes({ status: 'COMPLETED' }), schema, parse)
  t.same(back.success && back.data, { status: 'COMPLETED' })
  t.equal(counter.checks, 2, 'the last good body is still the one held')
})

t.test('each path holds its own body, and the bytes held are a copy', async (t) => {
  const { counter, schema } = counted()
  const checked = new CheckedBodies<z.infer<typeof schema>>(10)
  const raw = bytes({ status: 'NEW' })
  checked.check('/v1/orders/a', raw, schema, parse)
  raw.fill(0x20)
  t.ok(checked.check('/v1/orders/a', bytes({ status: 'NEW' }), schema, parse).success)
  t.equal(counter.checks, 1, 'reusing the caller’s buffer changed nothing held')
  checked.check('/v1/orders/b', bytes({ status: 'NEW' }), schema, parse)
  t.equal(counter.checks, 2, 'another path with the same bytes is checked for itself')
})

t.test('past its bound the least recently read path is forgotten', async (t) => {
  const { counter, schema } = counted()
  const checked = new CheckedBodies<z.infer<typeof schema>>(2)
  for (const path of ['a', 'b', 'c']) checked.check(path, bytes({ status: 'NEW' }), schema, parse)
  checked.check('c', bytes({ status: 'NEW' }), schema, parse)
  t.equal(counter.checks, 3)
  checked.check('a', bytes({ status: 'NEW' }), schema, parse)
  t.equal(counter.checks, 4)
})
