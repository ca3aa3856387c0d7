// Carries out a queued fault on a live request. Delays and hangs hold sockets open, so they are
// tracked and released when the sandbox closes: a test run must be able to exit.
import type { Socket } from 'node:net'
import { Readable } from 'node:stream'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Clock, Timer } from '../clock.js'
import { genericServerError } from './envelopes.js'
import type { Fault } from './faults.js'

const ERROR_PAGE =
  '<!DOCTYPE html>\n<html><head><title>Service temporarily unavailable</title></head>' +
  '<body><h1>Something went wrong</h1><p>Please try again later.</p></body></html>\n'

/** `answered`: the fault took the request over; `continue`: handle it normally (maybe marked). */
export type FaultOutcome = 'answered' | 'continue' | 'continue-then-drop'

type Trickle = Extract<Fault, { kind: 'trickle' }>

const DEFAULT_PIECES = 20

export class FaultEffects {
  private readonly delays = new Set<{ timer: Timer; cancel: () => void }>()
  private readonly held = new Set<Socket>()

  constructor(private readonly clock: Clock) {}

  async apply(fault: Fault, request: FastifyRequest, reply: FastifyReply): Promise<FaultOutcome> {
    switch (fault.kind) {
      case 'delay':
        return (await this.wait(fault.ms)) ? 'continue' : this.drop(request, reply)
      case 'hang':
        reply.hijack()
        this.hold(request.raw.socket)
        return 'answered'
      case 'error500':
        reply.code(500).send(genericServerError().body)
        return 'answered'
      case 'badBody':
        reply.code(200).type('text/html; charset=utf-8').send(ERROR_PAGE)
        return 'answered'
      case 'status':
        reply
          .code(fault.status)
          .headers(fault.headers ?? {})
          .send(fault.body ?? '')
        return 'answered'
      case 'drop':
        return this.drop(request, reply)
      case 'dropAfter':
        return 'continue-then-drop'
      case 'trickle':
        // Handled normally; its body is slowed down on the way out (trickle below).
        return 'continue'
    }
  }

  /** The answer's body as a stream that sends it in pieces over the fault's `ms`. */
  trickle(payload: unknown, fault: Trickle): Readable {
    const bytes = Buffer.from(typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : '')
    const pieces = Math.min(fault.pieces ?? DEFAULT_PIECES, Math.max(1, bytes.length))
    const size = Math.ceil(bytes.length / pieces)
    const gap = fault.ms / pieces
    const wait = (ms: number) => this.wait(ms)
    return Readable.from(
      (async function* () {
        for (let at = 0; at < bytes.length; at += size) {
          // A sandbox closing mid-answer cuts it: an error destroys the response, as a reset would.
          if (!(await wait(gap))) throw new Error('the sandbox closed during a trickled answer')
          yield bytes.subarray(at, at + size)
        }
      })(),
    )
  }

  /** Ends every delay and held request; called before the server closes. */
  release(): void {
    for (const delay of this.delays) delay.cancel()
    for (const socket of this.held) socket.destroy()
    this.held.clear()
  }

  private drop(request: FastifyRequest, reply: FastifyReply): 'answered' {
    reply.hijack()
    request.raw.socket.destroy()
    return 'answered'
  }

  private hold(socket: Socket): void {
    this.held.add(socket)
    socket.once('close', () => this.held.delete(socket))
  }

  /** Resolves true after `ms`, or false if the sandbox closes first. */
  private wait(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const delay = {
        timer: this.clock.setTimeout(() => {
          this.delays.delete(delay)
          resolve(true)
        }, ms),
        cancel: () => {
          this.clock.clearTimeout(delay.timer)
          this.delays.delete(delay)
          resolve(false)
        },
      }
      this.delays.add(delay)
    })
  }
}
