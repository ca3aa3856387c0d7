// Spawns a benchmark target (servers.ts) in its own process and waits for its URL.
import { type ChildProcess, spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { scriptArgs } from './script.js'

export interface Target {
  url: string
  child: ChildProcess
  stop(): void
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
  return { url, child, stop: () => child.kill('SIGKILL') }
}
