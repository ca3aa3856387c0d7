// The soak in its short form (SOAK_SECONDS, default 20): no INTERNAL, every created order readable,
// every stream ended on its order's final state, and the heap after the load within HEAP_BOUND_MB of
// the heap before it. `npm run soak -- --minutes N` runs the same for longer.
import t from 'tap'
import { runSoak } from './soak.js'
import { HEAP_BOUND_MB } from './soak-bounds.js'

// A warm-up, 20 s of load, then every stream ending: more than tap's per-file limit.
t.setTimeout(180_000)

t.test('a short soak leaves no INTERNAL, no lost order or state, and no heap growth', async (t) => {
  const figures = await runSoak({
    seconds: Number(process.env.SOAK_SECONDS ?? 20),
    streams: 200,
    workers: 6,
    dropStreamsEveryMs: 2_000,
  })
  t.comment(`soak figures: ${JSON.stringify(figures)}`)
  t.equal(figures.codes.INTERNAL, undefined, 'no INTERNAL')
  t.equal(figures.codes['not a problem document'], undefined, 'every failure a problem document')
  t.ok(figures.ordersCreated > 0, `${figures.ordersCreated} orders created`)
  t.equal(figures.ordersReadBack, figures.ordersCreated, 'every created order is readable')
  t.ok(figures.streamsOpened >= 100, `${figures.streamsOpened} streams followed`)
  t.equal(figures.streamsSawFinalState, figures.streamsOpened, "every stream saw its order's final state")
  t.ok(figures.upstreamStreamDrops > 0, 'the upstream dropped streams along the way')
  for (const status of ['COMPLETED', 'ERROR', 'TIMED_OUT'])
    t.ok(figures.finalStates[status], `orders ${status}`)
  t.ok(
    figures.heapAfterMb - figures.heapBeforeMb <= HEAP_BOUND_MB,
    `heap ${figures.heapBeforeMb} MB before, ${figures.heapAfterMb} MB after (bound +${HEAP_BOUND_MB} MB)`,
  )
})
