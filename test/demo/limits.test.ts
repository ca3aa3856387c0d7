// The demo page reads a pair's bounds from the swap-limits body only under names it knows (the
// sandbox's and another implementation's), never guessing at others.
import t from 'tap'
import { boundsOf, outside } from '../../src/demo/page/limits.js'

t.test('bounds under the known names, numbers or their text; none under others', async (t) => {
  t.same(boundsOf({ minimalAmount: 15, maximalAmount: 250000 }), { min: 15, max: 250000 })
  t.same(boundsOf({ minAmount: '20', maxAmount: '500.5' }), { min: 20, max: 500.5 })
  t.same(boundsOf({ minAmount: 20 }), { min: 20, max: undefined }, 'a lower bound alone')
  t.same(boundsOf({ minimalAmount: 'x', minAmount: 3, maxAmount: 9 }), { min: 3, max: 9 })
  t.equal(boundsOf({ lowest: 1, highest: 2 }), undefined, 'unknown names: nothing')
  t.equal(boundsOf({ minAmount: '' }), undefined)
  t.equal(boundsOf({}), undefined)
})

t.test('an amount as typed is below, above, or neither', async (t) => {
  const bounds = { min: 15, max: 250 }
  t.equal(outside(bounds, '1'), 'below')
  t.equal(outside(bounds, '15'), undefined)
  t.equal(outside(bounds, '250'), undefined)
  t.equal(outside(bounds, '250.01'), 'above')
  t.equal(outside({ min: 15, max: undefined }, '1e9'), undefined, 'no upper bound')
  t.equal(outside(bounds, ''), undefined, 'nothing typed')
  t.equal(outside(bounds, 'abc'), undefined, 'not a number: the quote says so')
  t.equal(outside(bounds, '-5'), undefined, 'not positive: the quote says so')
  t.equal(outside(bounds, '0'), undefined)
})
