// A call the tenant key's quota kept from leaving: the call budget was spent for that second, or the
// pause after an upstream 429 is running. Nothing was asked of the upstream, so callers that repeat
// on their own (a live quote's refresh) wait for their next turn instead of reporting a failure.
import { GatewayError } from '../errors.js'

export class QuotaRefusal extends GatewayError {}
