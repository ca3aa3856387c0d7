// /metrics on its own internal port (METRICS_PORT on METRICS_HOST), never on the public one, with the
// operators' routes other plugins add (`app.internalRoutes`): it opens when the gateway starts
// listening and closes with it. A port that cannot be opened is logged, not fatal: metrics
// must never keep the API down.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { InternalRouter, type InternalRoutes } from './internal-routes.js'

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The metrics endpoint's URL once it listens (tests read the ephemeral port here); undefined when
     * it is off or could not open its port. Settles after the gateway's own listen.
     */
    metricsUrl(): Promise<string | undefined>
    /** Routes of the internal port: add them before the gateway listens. */
    internalRoutes: InternalRoutes
  }
}

export interface MetricsServerOptions {
  /** Undefined: no metrics server. 0: an ephemeral port. */
  port: number | undefined
  /** METRICS_HOST: `127.0.0.1` keeps the port on the machine, whatever HOST the public port uses. */
  host: string
  /** Where problem `type` URIs point (errors.ts, errorTypeBase). */
  errorTypeBase: string
}

export const metricsServer = fp(
  async (app: FastifyInstance, opts: MetricsServerOptions) => {
    let server: Server | undefined
    let opened: (url: string | undefined) => void = () => {}
    const url = new Promise<string | undefined>((resolve) => {
      opened = resolve
    })
    const urlOf = (listening: Server) => {
      const address = listening.address() as AddressInfo
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
      return `http://${host}:${address.port}/metrics`
    }
    const router = new InternalRouter(opts.errorTypeBase, app.log)
    app.decorate('metricsUrl', () => url)
    app.decorate('internalRoutes', router)
    if (opts.port === undefined) {
      opened(undefined)
      return
    }
    const port = opts.port

    app.addHook('onListen', async () => {
      const registry = app.metrics.registry
      const metrics = createServer((req, res) => {
        if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
          if (router.answer(req, res)) return
          res
            .writeHead(404, { 'content-type': 'text/plain' })
            .end("Not found: this port serves GET /metrics and the operators' routes\n")
          return
        }
        registry.metrics().then(
          (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
          (err: unknown) => {
            app.log.error({ err }, 'metrics collection failed')
            res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics collection failed\n')
          },
        )
      })
      await new Promise<void>((resolve) => {
        metrics.once('error', (err) => {
          app.log.error({ err, port }, 'the metrics port could not be opened; serving without /metrics')
          opened(undefined)
          resolve()
        })
        metrics.listen({ port, host: opts.host }, () => {
          server = metrics
          app.log.info({ metrics: urlOf(metrics) }, 'metrics listening')
          opened(urlOf(metrics))
          resolve()
        })
      })
    })
    app.addHook('onClose', async () => {
      opened(undefined)
      if (!server) return
      const closing = server
      server = undefined
      closing.closeAllConnections()
      await new Promise<void>((resolve) => closing.close(() => resolve()))
    })
  },
  { name: 'metrics-server', dependencies: ['metrics'] },
)
