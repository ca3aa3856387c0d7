// Runs the gateway as a real process (`node --import tsx src/server.ts`) and reads its log lines.
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'

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
  const lines: Array<Record<string, unknown>> = []
  const waiters: Array<() => void> = []
  let err = ''
  child.stderr?.on('data', (d) => {
    err += d
  })
  createInterface({ input: child.stdout! }).on('line', (l) => {
    try {
      lines.push(JSON.parse(l))
    } catch {
      lines.push({ raw: l })
    }
    for (const w of waiters.splice(0)) w()
  })
  const exited = once(child, 'exit').then(([code]) => code as number | null)
  async function waitFor(pred: (line: Record<string, unknown>) => boolean, ms = 60_000) {
    const deadline = Date.now() + ms
    for (;;) {
      const found = lines.find(pred)
      if (found) return found
      if (Date.now() > deadline || child.exitCode !== null) {
        throw new Error(`no such log line; got ${JSON.stringify(lines)} ${err}`)
      }
      await new Promise<void>((resolve) => {
        waiters.push(resolve)
        setTimeout(resolve, 200)
      })
    }
  }
  return { child, lines, stderr: () => err, waitFor, exited }
}
