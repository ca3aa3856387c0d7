// An upstream answer read whole becomes the reply or our problem (classify.ts decides which code),
// and what it says beyond the call is acted on: the tenant key accepted or refused, the pause a 429
// asks for, the error logged with its text redacted.
import type { Clock } from '../clock.js'
import type { CallContext, UpstreamCall, UpstreamReply } from './call.js'
import { badResponse, type Classified, classifyAnswer } from './classify.js'
import type { CoolDown } from './cool-down.js'
import { logAnswer } from './redact.js'
import type { TenantKeyWatch } from './tenant-key.js'
import type { WholeResponse } from './whole-response.js'

export interface AnswerEffects {
  clock: Clock
  tenantKey: string
  tenantKeyWatch: TenantKeyWatch
  coolDown: CoolDown
}

/** The answer as the reply, or as our problem; what it says of the tenant key and the quota is noted. */
export function interpretAnswer<T>(
  ctx: CallContext,
  call: UpstreamCall<T>,
  res: WholeResponse,
  effects: AnswerEffects,
): UpstreamReply<T> | Classified {
  const { status, headers, body: raw } = res
  const answer = { operation: call.operation, status, raw }
  if (status >= 200 && status < 300) {
    const parsed = call.checked
      ? call.checked.check(call.path, raw, call.schema, parseJson)
      : call.schema.safeParse(parseJson(raw))
    if (parsed.success) {
      // With a user's token as well, the upstream may have let the call through on that one.
      if (call.tenantKey && !call.accessToken) effects.tenantKeyWatch.accepted()
      return { status, body: parsed.data, raw, headers }
    }
    const bad = badResponse(call.operation)
    logAnswer(ctx.log, effects.tenantKey, answer, bad)
    return bad
  }
  const retryAfter = headers['retry-after']
  const outcome = classifyAnswer(
    call.operation,
    status,
    parseJson(raw),
    Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
    effects.clock.now(),
  )
  logAnswer(ctx.log, effects.tenantKey, answer, outcome)
  if (call.tenantKey && outcome.error.code === 'UPSTREAM_AUTH_FAILED') effects.tenantKeyWatch.refused()
  if (status === 429) effects.coolDown.start(Number(outcome.error.members.retryAfter))
  return outcome
}

function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return undefined
  try {
    return JSON.parse(raw.toString('utf8'))
  } catch {
    return undefined
  }
}
