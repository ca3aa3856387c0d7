// The fleet's processes (gateways, haproxy, redis-server), started by the test and always stopped:
// each test's teardown kills what is still running, and a watchdog shell kills what is listed in its
// pid file when the test process dies without a teardown (a timeout, a crash), so a failed run leaves
// no balancer or server holding ports.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readLines, UNCOVERED_CHILD } from '../helpers/process.js'

const running = new Set<ChildProcess>()
let pidFile: string | undefined

function listPids(): void {
  if (pidFile) writeFileSync(pidFile, [...running].map((c) => c.pid).join(' '))
}

/** One per test process: `read` returns when our end of its stdin closes, however we ended. */
function watchdog(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-pids-'))
  const file = join(dir, 'pids')
  writeFileSync(file, '')
  const dog = spawn('sh', ['-c', `read _; kill -9 $(cat "${file}") 2>/dev/null; rm -rf "${dir}"`], {
    stdio: ['pipe', 'ignore', 'ignore'],
  })
  dog.unref()
  ;(dog.stdin as unknown as { unref(): void }).unref()
  process.once('exit', () => {
    for (const child of running) child.kill('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  })
  return file
}

export interface Child {
  name: string
  process: ChildProcess
  /** stdout lines, JSON-parsed when they are JSON (the gateway's pino lines). */
  lines: Array<Record<string, unknown>>
  stderr: () => string
  exited: Promise<number | null>
  /** Resolves with the first line (seen or to come) that satisfies `pred`. */
  waitFor(
    what: string,
    pred: (line: Record<string, unknown>) => boolean,
    ms?: number,
  ): Promise<Record<string, unknown>>
  /** SIGKILL (it works on a stopped process too) and wait for the exit. */
  kill(): Promise<void>
}

export function startChild(
  name: string,
  command: string,
  args: string[],
  opts: { env?: Record<string, string>; cwd?: string } = {},
): Child {
  pidFile ??= watchdog()
  const proc = spawn(command, args, {
    cwd: opts.cwd,
    env: { PATH: process.env.PATH ?? '', ...UNCOVERED_CHILD, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.add(proc)
  listPids()
  const exited = new Promise<number | null>((resolve) => {
    proc.once('exit', (code) => {
      running.delete(proc)
      listPids()
      resolve(code)
    })
    proc.once('error', () => {
      running.delete(proc)
      listPids()
      resolve(null)
    })
  })
  let err = ''
  proc.stderr?.on('data', (d) => {
    err += d
  })
  const { lines, waitFor } = readLines(proc.stdout!)
  const child: Child = {
    name,
    process: proc,
    lines,
    stderr: () => err,
    exited,
    waitFor: (what, pred, ms = 60_000) =>
      waitFor(
        pred,
        ms,
        (why) =>
          new Error(
            `${name}: ${why} waiting for ${what} (exit code ${proc.exitCode}, signal ${proc.signalCode}); ` +
              `last lines: ${JSON.stringify(lines.slice(-5))}; stderr: ${err.slice(-2000)}`,
          ),
      ),
    async kill() {
      if (proc.exitCode !== null || proc.signalCode !== null) return
      proc.kill('SIGKILL')
      await exited
    },
  }
  return child
}

export function installed(command: string, versionFlag: string): boolean {
  const found = spawnSync(command, [versionFlag], { stdio: 'ignore' })
  return !found.error && found.status === 0
}
