// The circuit breaker, on the fake clock: opens after a run of failures, answers at once while open,
// lets one probe through after openMs, and the probe's outcome closes or reopens it.
import t from 'tap'
import { type BreakerState, CircuitBreaker } from '../../src/upstream/breaker.js'
import { fakeClock } from '../helpers/clock.js'

const setup = () => {
  const clock = fakeClock()
  const changes: BreakerState[] = []
  const breaker = new CircuitBreaker({ threshold: 3, openMs: 5_000 }, clock, (s) => changes.push(s))
  return { clock, changes, breaker }
}

t.test('stays closed until the threshold of failures in a row, then refuses calls', async (t) => {
  const { breaker, changes } = setup()
  breaker.failure()
  breaker.failure()
  t.ok(breaker.allow(), 'two failures: still closed')
  breaker.failure()
  t.equal(breaker.current, 'open')
  t.notOk(breaker.allow(), 'open: calls are refused at once')
  t.same(changes, ['open'])
})

t.test('a success resets the run, so scattered failures never open it', async (t) => {
  const { breaker } = setup()
  for (let i = 0; i < 10; i++) {
    breaker.failure()
    breaker.failure()
    breaker.success()
  }
  t.equal(breaker.current, 'closed')
})

t.test('after openMs one probe goes through; its success closes the breaker', async (t) => {
  const { breaker, clock, changes } = setup()
  for (let i = 0; i < 3; i++) breaker.failure()
  clock.advance(4_999)
  t.notOk(breaker.allow(), 'still open just before openMs')
  clock.advance(1)
  t.ok(breaker.allow(), 'the probe')
  t.notOk(breaker.allow(), 'only one probe at a time')
  breaker.success()
  t.ok(breaker.allow())
  t.same(changes, ['open', 'half-open', 'closed'])
})

t.test('a failed probe reopens it for another openMs', async (t) => {
  const { breaker, clock } = setup()
  for (let i = 0; i < 3; i++) breaker.failure()
  clock.advance(5_000)
  t.ok(breaker.allow())
  breaker.failure()
  t.equal(breaker.current, 'open')
  clock.advance(4_000)
  t.notOk(breaker.allow())
  clock.advance(1_000)
  t.ok(breaker.allow(), 'a new probe after a full openMs')
})

t.test('a probe answered with a client error frees the probe slot without a verdict', async (t) => {
  const { breaker, clock } = setup()
  for (let i = 0; i < 3; i++) breaker.failure()
  clock.advance(5_000)
  t.ok(breaker.allow())
  breaker.settle()
  t.equal(breaker.current, 'half-open')
  t.ok(breaker.allow(), 'the next call may probe')
})
