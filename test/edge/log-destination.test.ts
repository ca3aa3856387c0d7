// The log destination batches lines: each batch is written whole and in order once it passes 4 KiB,
// pending lines are written within a quarter second when traffic is light, and on exit.
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'
import { logDestination } from '../../src/edge/logging.js'
import { eventually } from '../helpers/eventually.js'

const fileIn = (name: string) => join(mkdtempSync(join(tmpdir(), 'log-destination-')), name)
const lineOf = (n: number) => `${JSON.stringify({ n, pad: 'x'.repeat(80) })}\n`
const read = (file: string) => readFileSync(file, 'utf8')

t.test('lines are held until a batch passes 4 KiB, then written whole and in order', async (t) => {
  const file = fileIn('batch.log')
  const destination = logDestination(file)
  t.teardown(() => destination.stream.end())
  for (let n = 0; n < 10; n++) destination.write(lineOf(n))
  t.equal(read(file), '', 'ten short lines are still pending')
  for (let n = 10; n < 60; n++) destination.write(lineOf(n))
  const written = read(file)
  t.ok(written.length >= 4096, 'a batch of at least 4 KiB was written')
  const lines = written.split('\n').filter(Boolean)
  t.same(
    lines.map((l) => (JSON.parse(l) as { n: number }).n),
    lines.map((_, n) => n),
    'whole lines, in the order they were logged',
  )
})

t.test('pending lines are written soon when traffic is light', async (t) => {
  const file = fileIn('quiet.log')
  const destination = logDestination(file)
  t.teardown(() => destination.stream.end())
  destination.write(lineOf(1))
  await eventually('the quiet line to be written', () => read(file) === lineOf(1), 2_000)
})

t.test('pending lines are written when the process exits', async (t) => {
  const file = fileIn('exit.log')
  const script = [
    `import { logDestination } from ${JSON.stringify(new URL('../../src/edge/logging.ts', import.meta.url).href)}`,
    `logDestination(${JSON.stringify(file)}).write(${JSON.stringify(lineOf(7))})`,
    'process.exit(0)',
  ].join('\n')
  await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script])
  t.equal(read(file), lineOf(7))
})
