// Graceful shutdown in three phases, so a rolling deploy behind a load balancer loses no request:
// (1) /readyz answers 503 while everything is still served, for as long as a load balancer needs to
// see it and stop sending; (2) no new connections, in-flight answers carry `Connection: close`, idle
// keep-alive connections (a balancer's pool) are closed, streams end spread over their window;
// (3) the process is done as soon as nothing is open, and at the deadline whatever is still open is
// cut, with one line saying how much. The exit code is 0 either way: a deploy that had to cut a slow
// client still went as planned.
import type { FastifyInstance } from 'fastify'
import { pause, type Timer } from '../clock.js'

export interface ShutdownTimes {
  /** SHUTDOWN_READY_DELAY_MS: phase 1. */
  readyDelayMs: number
  /** SHUTDOWN_TIMEOUT_MS: phases 2 and 3, from the end of phase 1. */
  timeoutMs: number
}

/** Connections that finish an answer during phase 2 become idle: they are closed this often. */
const IDLE_SWEEP_MS = 100
/** After cutting connections, how long the last clean-ups (upstream pool, Redis, log) may take. */
const AFTER_CUT_MS = 1_000

function openConnections(app: FastifyInstance): Promise<number> {
  return new Promise((resolve) => {
    app.server.getConnections((err, count) => resolve(err ? 0 : count))
  })
}

/** Runs the phases; resolves when the app is closed (or given up on after the deadline's cut). */
export async function shutDown(app: FastifyInstance, times: ShutdownTimes): Promise<void> {
  app.draining.unready()
  app.log.info(
    { phase: 'unready', readyDelayMs: times.readyDelayMs },
    'shutting down: /readyz answers 503 while requests are still served',
  )
  const { clock } = app
  await pause(clock, times.readyDelayMs)

  app.log.info(
    { phase: 'drain', timeoutMs: times.timeoutMs },
    'shutting down: no new connections; finishing requests, ending streams',
  )
  let closed = false
  const closing = app.close().then(() => {
    closed = true
  })
  // Socket plumbing, on the process's timers: idle connections are closed whatever the app's clock says.
  const sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS)
  let deadline: Timer | undefined
  const timedOut = new Promise<'deadline'>((resolve) => {
    deadline = clock.setTimeout(() => resolve('deadline'), times.timeoutMs)
  })
  const first = await Promise.race([closing.then(() => 'closed' as const), timedOut])
  clearInterval(sweep)
  clock.clearTimeout(deadline)
  if (first === 'closed' || closed) return

  const open = await openConnections(app)
  app.log.warn(
    { phase: 'cut', connections: open },
    `shutting down: deadline reached, cutting ${open} open connection(s)`,
  )
  app.server.closeAllConnections()
  // On the process's timers: the app is closed, and this bounds the clean-ups of real connections.
  await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, AFTER_CUT_MS))])
}
