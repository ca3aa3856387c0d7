// Auth's metric: logout records Redis could not write or be asked for.
import type { Metrics } from '../observability/metrics.js'

export function revocationFailures(metrics: Metrics): (operation: 'revoke' | 'check') => void {
  const failures = metrics.counter({
    name: 'gateway_session_revocation_failures_total',
    help: 'Logout records Redis could not write (revoke) or be asked for (check, which then fails open)',
    labelNames: ['operation'],
  })
  return (operation) => failures.inc({ operation })
}
