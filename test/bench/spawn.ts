// Spawns a benchmark target (servers.ts) in its own process and waits for its URL.
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { scriptArgs } from './script.js'

export interface Target {
  url: string
  child: ChildProcess
  stop(): void
  /** CPU time (user + system, all threads) the target has used so far, in µs; undefined off Linux. */
  cpuMicros(): number | undefined
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on every Linux we run on). */
const USER_HZ = 100

export function cpuMicrosOf(pid: number | undefined): number | undefined {
  try {
    // Fields after the command name: state is the 1st, utime the 12th, stime the 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / USER_HZ
  } catch {
    return undefined
  }
}

export async function startTarget(args: string[], extraNodeArgs: string[] = []): Promise<Target> {
  const child = spawn(process.execPath, [...extraNodeArgs, ...scriptArgs('./servers.ts'), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)))
  })
  const { url } = JSON.parse(line) as { url: string }
  return { url, child, stop: () => child.kill('SIGKILL'), cpuMicros: () => cpuMicrosOf(child.pid) }
}
