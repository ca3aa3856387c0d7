// Each request's logger (request.log), made when first used. Fastify gives every request a pino child
// bound to its id, and making one (its bindings serialised) cost about a sixth of the request's log
// line. Most requests log nothing but that line, which is written without it, with the bindings as
// its first fields (edge/request-line.ts): the bytes the child would write, since pino writes a
// child's bindings just before the logged object's fields. The line is built with the id in place
// (edge/logging.ts): spreading the bindings into a copy of it cost several times what the child did.
// Whatever else a request logs goes through its child, made then. Fastify's `childLoggerFactory`
// option installs it.
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify'
import type { Bindings, ChildLoggerOptions, Logger } from 'pino'

type Method = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
type Args = Parameters<FastifyBaseLogger['info']>

export class RequestLog {
  private made: FastifyBaseLogger | undefined

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  /** The child Fastify would have made, made once. */
  private get own(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options)
    return this.made
  }

  get level(): string {
    return this.own.level
  }

  set level(level: string) {
    this.own.level = level
  }

  /**
   * The parent, while the child is not needed (not made, and no route level or serializers, which
   * Fastify passes as options): a line logged through it with the bindings as its first fields is the
   * line the child would write.
   */
  parentWhileUnneeded(): FastifyBaseLogger | undefined {
    if (this.made || this.options.level !== undefined || this.options.serializers !== undefined)
      return undefined
    return this.parent
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.own.child(bindings, options)
  }

  fatal(...args: Args) {
    this.call('fatal', args)
  }
  error(...args: Args) {
    this.call('error', args)
  }
  warn(...args: Args) {
    this.call('warn', args)
  }
  info(...args: Args) {
    this.call('info', args)
  }
  debug(...args: Args) {
    this.call('debug', args)
  }
  trace(...args: Args) {
    this.call('trace', args)
  }
  silent(..._args: Args) {}

  private call(method: Method, args: Args) {
    // A line below the level makes no child: the child would inherit the level and drop it too.
    if (!this.made && this.options.level === undefined && !(this.parent as Logger).isLevelEnabled(method))
      return
    ;(this.own[method] as (...a: Args) => void)(...args)
  }
}

export const requestLogFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  parent,
  bindings,
  options,
) => new RequestLog(parent, bindings, options) as unknown as FastifyBaseLogger
