// Identical calls in flight share one upstream call; every caller that joins keeps its own deadline.
// A joiner whose deadline comes no earlier than the starter's waits for the shared call itself (which
// ends by the starter's deadline); one with an earlier deadline stops waiting at its own.
import type { FastifyBaseLogger } from 'fastify'
import t from 'tap'
import { problems } from '../../src/problems.js'
import { Coalescer } from '../../src/upstream/coalesce.js'
import type { CallContext } from '../../src/upstream/client.js'
import { fakeClock } from '../helpers/clock.js'

/** Deadlines and the joiners' own timers run on this clock, moved by the tests. */
const clock = fakeClock()

const contextEndingIn = (ms: number): CallContext => ({
  requestId: `r${ms}`,
  log: {} as FastifyBaseLogger,
  deadline: clock.now() + ms,
  timing: { ms: 0 },
})

function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (err: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

t.test('a joiner with a later deadline gets the shared answer; one call is made', async (t) => {
  const coalescer = new Coalescer<string>(clock)
  const upstream = deferred<string>()
  let calls = 0
  const call = () => {
    calls++
    return upstream.promise
  }
  const first = coalescer.run('k', contextEndingIn(1_000), call)
  const joinerCtx = contextEndingIn(2_000)
  const joiner = coalescer.run('k', joinerCtx, call)
  upstream.resolve('answer')
  t.same(await Promise.all([first, joiner]), ['answer', 'answer'])
  t.equal(calls, 1)
  t.ok(joinerCtx.timing!.ms > 0, "the wait counts as the joiner's upstream time")
})

t.test('a joiner with an earlier deadline stops waiting at its own deadline', async (t) => {
  const coalescer = new Coalescer<string>(clock)
  const upstream = deferred<string>()
  const first = coalescer.run('k', contextEndingIn(5_000), () => upstream.promise)
  const joiner = coalescer.run('k', contextEndingIn(50), () => upstream.promise)
  let settled = false
  void joiner.catch(() => (settled = true))
  clock.advance(49)
  await Promise.resolve()
  t.notOk(settled, 'still waiting before its deadline')
  clock.advance(1)
  await t.rejects(joiner, { code: 'UPSTREAM_TIMEOUT' }, 'the joiner times out on its own clock')
  upstream.resolve('late answer')
  t.equal(await first, 'late answer', 'the starter still gets the answer')
})

t.test(
  "a joiner with time left asks again itself when the shared call ran out of the starter's time",
  async (t) => {
    const coalescer = new Coalescer<string>(clock)
    const upstream = deferred<string>()
    let calls = 0
    const first = coalescer.run('k', contextEndingIn(20), () => {
      calls++
      return upstream.promise
    })
    const joiner = coalescer.run('k', contextEndingIn(5_000), () => {
      calls++
      return Promise.resolve('own answer')
    })
    upstream.reject(problems.upstreamTimeout())
    await t.rejects(first, { code: 'UPSTREAM_TIMEOUT' })
    t.equal(await joiner, 'own answer')
    t.equal(calls, 2)
  },
)
