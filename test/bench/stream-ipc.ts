// The messages the stream benchmark's processes exchange over their IPC channels, and the helpers
// that spawn a benchmark process (with the open-files limit raised) and talk to it.
import { type ChildProcess, spawn } from 'node:child_process'
import { scriptArgs } from './script.js'

export type Message = { type: string } & Record<string, unknown>

/** Wall-clock time in ms with sub-millisecond resolution, comparable across processes on one machine. */
export const wallNow = () => performance.timeOrigin + performance.now()

export interface Peer {
  child: ChildProcess
  /** What the process said when it became ready (its URL, for servers). */
  ready: Message
  /** Sends a message and resolves with the first reply of the given type. */
  ask<T extends Message>(message: Message, replyType: string): Promise<T>
  stop(): void
}

/** Spawns `node --expose-gc <script>` under `ulimit -n <hard limit>`, with an IPC channel. */
export async function spawnPeer(script: string, args: string[] = []): Promise<Peer> {
  const node = [process.execPath, '--expose-gc', ...scriptArgs(script), ...args]
    .map((a) => `'${a}'`)
    .join(' ')
  const child = spawn('/bin/sh', ['-c', `ulimit -n "$(ulimit -Hn)" && exec ${node}`], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const peer: Omit<Peer, 'ready'> = {
    child,
    ask(message, replyType) {
      return new Promise((resolve, reject) => {
        const onMessage = (reply: Message) => {
          if (reply.type !== replyType) return
          child.off('message', onMessage)
          child.off('exit', onExit)
          resolve(reply as never)
        }
        const onExit = (code: number | null) =>
          reject(new Error(`${script} exited (${code}) before ${replyType}`))
        child.on('message', onMessage)
        child.once('exit', onExit)
        if (message.type !== 'none') child.send(message)
      })
    },
    stop: () => {
      child.kill('SIGKILL')
    },
  }
  const ready = await peer.ask({ type: 'none' }, 'ready')
  return { ...peer, ready }
}

/** In a spawned process: answers the orchestrator's messages with `handle`, and says it is ready. */
export function serve(
  handle: (message: Message) => Promise<Message | undefined>,
  ready: Message = { type: 'ready' },
) {
  process.on('message', (message: Message) => {
    void handle(message).then((reply) => reply && process.send?.(reply))
  })
  process.send?.(ready)
}

/** RSS and heap after two full collections, in bytes. */
export function settledMemory() {
  const gc = (globalThis as { gc?: () => void }).gc
  if (!gc) throw new Error('run with --expose-gc')
  gc()
  gc()
  const m = process.memoryUsage()
  return { rss: m.rss, heapUsed: m.heapUsed }
}
