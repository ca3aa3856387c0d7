// The gateway's log destination: lines held until a batch passes 4 KiB, then written whole and in
// order; pending lines written soon when traffic is light, when the app closes, and through pino's
// flush (which server.ts calls when the process exits).
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Logger } from 'pino'
import t from 'tap'
import { LogBatches } from '../../src/edge/log-batches.js'
import { eventually } from '../helpers/eventually.js'
import { startGateway } from '../helpers/gateway.js'

const fileIn = (name: string) => join(mkdtempSync(join(tmpdir(), 'log-batches-')), name)
const lineOf = (n: number) => `${JSON.stringify({ n, pad: 'x'.repeat(80) })}\n`
const read = (file: string) => readFileSync(file, 'utf8')

t.test('lines are held until a batch passes 4 KiB, then written whole and in order', async (t) => {
  const file = fileIn('batch.log')
  const batches = new LogBatches(file)
  t.teardown(() => batches.close())
  for (let n = 0; n < 10; n++) batches.write(lineOf(n))
  t.equal(read(file), '', 'ten short lines are still pending')
  for (let n = 10; n < 60; n++) batches.write(lineOf(n))
  const written = read(file)
  t.ok(written.length >= 4096, 'a batch of at least 4 KiB was written')
  const lines = written.split('\n').filter(Boolean)
  t.same(
    lines.map((l) => (JSON.parse(l) as { n: number }).n),
    lines.map((_, n) => n),
    'whole lines, in the order they were logged',
  )
  batches.flush()
  t.equal(read(file).split('\n').filter(Boolean).length, 60, 'flush writes the rest')
})

t.test('pending lines are written soon when traffic is light', async (t) => {
  const file = fileIn('quiet.log')
  const batches = new LogBatches(file, 20)
  t.teardown(() => batches.close())
  batches.write(lineOf(1))
  await eventually('the quiet line to be written', () => read(file) === lineOf(1), 2_000)
})

t.test("the app's own destination: pino's flush and the app's close write what is pending", async (t) => {
  const file = fileIn('app.log')
  // The gateway's own destination, in place of the one tests read lines from.
  const { app } = await startGateway(t, { deps: { logStream: undefined, logTo: file } })
  // Start-up's own lines (warnings are written at once) are there already; `first` is not.
  const before = read(file)
  app.log.info('first')
  t.equal(read(file), before, 'one line is still pending')
  ;(app.log as Logger).flush()
  t.match(read(file), /"msg":"first"/, "pino's flush (server.ts calls it on exit) writes it")
  app.log.info('last')
  await app.close()
  t.match(read(file), /"msg":"last"/, 'closing the app writes the last line')
})
