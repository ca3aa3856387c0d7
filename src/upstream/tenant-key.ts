// What the upstream thinks of this instance's tenant key. A key it refuses before ever accepting it
// (a wrong key rolled out with a new version) is this instance's own fault: readiness fails, so the
// roll-out stops while the old instances go on serving. A key refused after it had worked is an
// upstream-side change every instance sees at once: readiness shows it as degraded and stays 200.
// Either way each refusal is counted, and each change of state is one error line naming the variable.
import type { FastifyBaseLogger } from 'fastify'
import type { ReadinessCheck } from '../observability/readiness.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** What the upstream thinks of TENANT_API_KEY. */
    tenantKey: TenantKeyWatch
  }
}

type KeyState = 'unknown' | 'checking' | 'accepted' | 'refused'

export class TenantKeyWatch {
  private state: KeyState = 'unknown'
  private everAccepted = false
  /** Answers that refused the key, for metrics. */
  refusals = 0

  constructor(private readonly log: FastifyBaseLogger) {}

  /** The start-up check is under way: not ready until it has an answer (or none can be had). */
  checking(): void {
    if (this.state === 'unknown') this.state = 'checking'
  }

  /** The check got no verdict (the upstream unreachable): a shared outage, not a key problem. */
  undecided(): void {
    if (this.state === 'checking') this.state = 'unknown'
  }

  accepted(): void {
    if (this.state === 'refused')
      this.log.warn({ tenantKey: 'accepted' }, 'the upstream accepts TENANT_API_KEY again')
    this.everAccepted = true
    this.state = 'accepted'
  }

  refused(): void {
    this.refusals++
    if (this.state === 'refused') return
    this.state = 'refused'
    this.log.error(
      { tenantKey: 'refused' },
      this.everAccepted
        ? 'the upstream refuses TENANT_API_KEY, which it accepted before: pricing and order creation fail on every instance using it'
        : 'the upstream refuses TENANT_API_KEY: this instance is not ready (check the key this version was deployed with)',
    )
  }

  /** The member failing readiness (never accepted) and the one degrading it (accepted before). */
  readiness(): ReadinessCheck[] {
    return [
      {
        name: 'tenantKey',
        problem: () => {
          if (this.state === 'checking') return 'checking TENANT_API_KEY with the upstream'
          if (this.state === 'refused' && !this.everAccepted) return 'the upstream refused TENANT_API_KEY'
          return undefined
        },
      },
      {
        name: 'tenantKey',
        degradesOnly: true,
        problem: () =>
          this.state === 'refused' && this.everAccepted
            ? 'the upstream refuses TENANT_API_KEY (it accepted it before)'
            : undefined,
      },
    ]
  }
}
