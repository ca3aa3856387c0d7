// Runs the gateway as a real process (`node --import tsx src/server.ts`) and reads its log lines, as
// the fleet's children are read too: each line is looked at as it comes.
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'

export interface GatewayProcess {
  child: ChildProcess
  lines: Array<Record<string, unknown>>
  stderr: () => string
  /** Resolves with the first log line that satisfies `pred`. */
  waitFor(pred: (line: Record<string, unknown>) => boolean, ms?: number): Promise<Record<string, unknown>>
  exited: Promise<number | null>
}

/**
 * For a child that runs the sources through tsx (`npm start`, `npm run sandbox`): no coverage. tap
 * records coverage in every child it can reach, but tsx transpiles each file otherwise than tap's
 * TypeScript loader does, so that coverage, merged by file into the tests' own, would lay one
 * transpilation's offsets over the other's source map and misreport whole files.
 */
export const UNCOVERED_CHILD = { _TAPJS_PROCESSINFO_COVERAGE_: '0' }

export function runGateway(env: Record<string, string>): GatewayProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { PATH: process.env.PATH ?? '', METRICS_PORT: '0', ...UNCOVERED_CHILD, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let err = ''
  child.stderr?.on('data', (d) => {
    err += d
  })
  const { lines, waitFor } = readLines(child.stdout!)
  const exited = once(child, 'exit').then(([code]) => code as number | null)
  return {
    child,
    lines,
    stderr: () => err,
    waitFor: (pred, ms = 60_000) =>
      waitFor(pred, ms, (why) => new Error(`no such log line (${why}); got ${JSON.stringify(lines)} ${err}`)),
    exited,
  }
}

export interface LineReader {
  /** Every line so far, JSON-parsed where it is JSON (a gateway's pino lines). */
  lines: Array<Record<string, unknown>>
  /**
   * Resolves with the first line, seen or to come, that satisfies `pred`, checked as each line comes;
   * rejects with `failure(why)` once the output has ended without one, or after `ms` (a process hung).
   */
  waitFor(
    pred: (line: Record<string, unknown>) => boolean,
    ms: number,
    failure: (why: string) => Error,
  ): Promise<Record<string, unknown>>
}

/** A child's output read line by line. */
export function readLines(output: Readable): LineReader {
  const lines: Array<Record<string, unknown>> = []
  const waiters = new Set<() => void>()
  const reader = createInterface({ input: output })
  reader.on('line', (text) => {
    try {
      lines.push(JSON.parse(text) as Record<string, unknown>)
    } catch {
      lines.push({ raw: text })
    }
    for (const w of waiters) w()
  })
  // Every line has been read once the output closes: one not seen by then never comes.
  const over = new Promise((resolve) => reader.once('close', resolve))
  const waitFor: LineReader['waitFor'] = (pred, ms, failure) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = lines.find(pred)
        if (!found) return
        done()
        resolve(found)
      }
      const fail = (why: string) => {
        done()
        reject(failure(why))
      }
      const timer = setTimeout(() => fail('timed out'), ms)
      const done = () => {
        waiters.delete(check)
        clearTimeout(timer)
      }
      waiters.add(check)
      void over.then(() => waiters.has(check) && fail('the output ended'))
      check()
    })
  return { lines, waitFor }
}
