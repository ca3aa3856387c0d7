// `npm run soak -- --minutes N`: the soak of soak.ts for N minutes (default 5), printing its figures
// and exiting non-zero when a property failed.
import { parseArgs } from 'node:util'
import { runSoak } from './soak.js'
import { HEAP_BOUND_MB } from './soak-bounds.js'

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '5' }, streams: { type: 'string', default: '300' } },
})
const minutes = Number(values.minutes)
if (!(minutes > 0)) throw new Error('--minutes must be a positive number')

const figures = await runSoak({
  seconds: Math.round(minutes * 60),
  streams: Number(values.streams),
  workers: 8,
  dropStreamsEveryMs: 5_000,
})
process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`)
const failures = [
  figures.codes.INTERNAL ? `${figures.codes.INTERNAL} INTERNAL answers` : '',
  figures.ordersReadBack === figures.ordersCreated ? '' : 'created orders not readable',
  figures.streamsSawFinalState === figures.streamsOpened ? '' : 'streams that missed their final state',
  figures.heapAfterMb - figures.heapBeforeMb <= HEAP_BOUND_MB ? '' : `heap grew over ${HEAP_BOUND_MB} MB`,
].filter(Boolean)
process.stdout.write(failures.length ? `FAILED: ${failures.join('; ')}\n` : 'soak passed\n')
process.exit(failures.length ? 1 : 0)
