// A redis-server of the test's own on a free port, so a test can stop it without touching the shared
// Redis. Undefined when the binary is not installed (the caller skips with a message).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import type { Test } from 'tap'
import { freePort } from '../helpers/ports.js'

export interface PrivateRedis {
  url: string
  port: number
  stop(): Promise<void>
  start(): Promise<void>
  /** SIGSTOP: a hung Redis, its sockets open and silent. */
  pause(): void
  /** SIGCONT: it answers again. */
  resume(): void
}

export const redisServerInstalled = () => !spawnSync('redis-server', ['--version']).error

export async function startPrivateRedis(t: Test): Promise<PrivateRedis> {
  const port = await freePort()
  let child: ChildProcess | undefined
  const start = async () => {
    const proc = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    child = proc
    await new Promise<void>((resolve, reject) => {
      let seen = ''
      proc.stdout?.on('data', (chunk: Buffer) => {
        seen += chunk.toString()
        if (seen.includes('Ready to accept connections')) resolve()
      })
      proc.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${seen.slice(-500)}`)))
    })
  }
  const stop = async () => {
    const proc = child
    child = undefined
    if (!proc || proc.exitCode !== null) return
    const exited = once(proc, 'exit')
    proc.kill('SIGKILL')
    await exited
  }
  const signal = (name: NodeJS.Signals) => {
    if (!child || child.exitCode !== null) throw new Error('the private redis-server is not running')
    child.kill(name)
  }
  await start()
  t.teardown(stop)
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    pause: () => signal('SIGSTOP'),
    resume: () => signal('SIGCONT'),
  }
}
