// Prometheus metrics of one gateway instance, in a registry of its own (several apps run side by side
// in tests). There is one way to add a metric: the capability that knows the figure defines it through
// `app.metrics` (in its own metrics.ts), and docs/operations.md's table lists it (a test holds the table
// and the registry together). Labels are route templates, methods, statuses, groups, operations and
// codes only: never a raw URL, an id, an address or a credential, so cardinality stays bounded and
// nothing secret leaks.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import {
  Counter,
  type CounterConfiguration,
  collectDefaultMetrics,
  Gauge,
  type GaugeConfiguration,
  Histogram,
  type HistogramConfiguration,
  type Metric,
  Registry,
} from 'prom-client'
import { RequestLatency, type RequestLatencySpec } from './request-latency.js'
import { VERSION } from '../version.js'

/** A figure a component keeps itself, read at scrape time: as it is (gauge), or one that only grows (counter). */
export interface ReadFigure<T> {
  kind: 'gauge' | 'counter'
  help: string
  pick(figures: T): number
}

type Spec<C> = Omit<C, 'registers'>

export interface Metrics {
  readonly registry: Registry
  counter<L extends string = string>(spec: Spec<CounterConfiguration<L>>): Counter<L>
  gauge<L extends string = string>(spec: Spec<GaugeConfiguration<L>>): Gauge<L>
  histogram<L extends string = string>(spec: Spec<HistogramConfiguration<L>>): Histogram<L>
  /** The requests' latency histogram (observability/request-latency.ts). */
  requestLatency(spec: RequestLatencySpec): RequestLatency
  /** Metrics named by the keys, each read from `source()` at every scrape. */
  read<T>(source: () => T, figures: Record<string, ReadFigure<T>>): void
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics
  }
}

export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

function readFigure<T>(registry: Registry, source: () => T, name: string, figure: ReadFigure<T>) {
  const { kind, help, pick } = figure
  if (kind === 'gauge') {
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const value = pick(source())
        if (Number.isFinite(value)) this.set(value)
        else this.reset()
      },
    })
    return
  }
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset()
      this.inc(pick(source()))
    },
  })
}

export const metricsPlugin = fp(
  async (app: FastifyInstance) => {
    const registry = new Registry()
    collectDefaultMetrics({ register: registry })
    const metrics: Metrics = {
      registry,
      counter: (spec) => new Counter({ ...spec, registers: [registry] }),
      gauge: (spec) => new Gauge({ ...spec, registers: [registry] }),
      histogram: (spec) => new Histogram({ ...spec, registers: [registry] }),
      requestLatency(spec) {
        const latency = new RequestLatency(spec)
        // The registry renders whatever `get`/`getForPromString` return; its types name only its own classes.
        registry.registerMetric(latency as unknown as Metric)
        return latency
      },
      read(source, figures) {
        for (const [name, figure] of Object.entries(figures)) readFigure(registry, source, name, figure)
      },
    }
    metrics
      .gauge({
        name: 'gateway_build_info',
        help: 'What this instance runs: always 1, with the gateway version and the Node.js version as labels',
        labelNames: ['version', 'node'],
      })
      .set({ version: VERSION, node: process.versions.node }, 1)
    app.decorate('metrics', metrics)
  },
  { name: 'metrics' },
)
