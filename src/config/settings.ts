// What each environment variable of envSchema (config.ts) means: the one text every settings table in
// docs/ is generated from (`npm run docs:tables`). Defaults are not repeated here: a variable with a
// zod `.default()` shows it; `unset` says what happens without one. Typed over every variable, so a
// variable added to the schema without its entry here fails `tsc` and test/docs/tables.test.ts.
import type { EnvVariable } from '../config.js'
import { OTEL_SETTINGS } from './otel-settings.js'

export interface Setting {
  /** What it does, for an operator; markdown, links relative to docs/. */
  meaning: string
  /** What happens when it is not set, for a variable whose schema has no default. */
  unset?: string
  /** Also listed in docs/api.md's table: the settings a frontend team meets. */
  frontend?: true
}

export const SETTINGS: Record<EnvVariable, Setting> = {
  NODE_ENV: {
    meaning:
      '`production` makes `UPSTREAM_URL`, `TENANT_API_KEY`, `SESSION_SECRET` and `PUBLIC_ORIGIN` required (no sandbox, no generated secret, no `localhost` origin) and stops allowing loopback origins.',
    frontend: true,
  },
  PORT: { meaning: 'Port of the public API.' },
  HOST: { meaning: 'Where the public API listens. Use `HOST=::` to accept IPv6 and IPv4 (Fly.io).' },
  API_PREFIX: {
    meaning: 'Prefix of every public route except `/healthz` and `/readyz`.',
    frontend: true,
  },
  UPSTREAM_URL: {
    meaning: "The upstream's base URL, possibly with a path.",
    unset: 'the built-in sandbox is started (refused in production)',
    frontend: true,
  },
  TENANT_API_KEY: {
    meaning: 'The tenant key sent upstream. Never logged, never in a response or a metric.',
    unset: 'required with `UPSTREAM_URL`',
    frontend: true,
  },
  SESSION_SECRET: {
    meaning: 'At least 32 characters; a comma-separated list rotates keys (the first seals, all unseal).',
    unset:
      'development: made once per checkout and kept in the git-ignored `.dev-session-secret`, so restarts keep sessions (the start-up warning names the file); required in production',
  },
  PUBLIC_ORIGIN: {
    meaning:
      'The origin browsers use; sign-in messages name its host for clients without `Origin`; problem `type`s are absolute URIs on it. `https` turns on `Secure`/`__Host-` cookies and HSTS.',
    unset: '`http://localhost:$PORT`; required in production',
    frontend: true,
  },
  ALLOWED_ORIGINS: {
    meaning:
      'Extra origins allowed to call with credentials (comma-separated). Outside production, `http://localhost:<port>`, `http://127.0.0.1:<port>` and `http://[::1]:<port>` are allowed without it.',
    unset: 'none',
    frontend: true,
  },
  REDIS_URL: {
    meaning:
      '`redis://` or `rediss://`, with an optional database number (`/3`). Rate-limit counters, Idempotency-Key records, logouts, sign-in nonces and the upstream call budget and cool-down then live in Redis ([Running a fleet](operations.md#running-a-fleet)). A database Redis refuses stops start-up naming `REDIS_URL`.',
    unset: 'each instance keeps that state in memory',
  },
  REDIS_COMMAND_TIMEOUT_MS: {
    meaning:
      'Deadline of each Redis command. A miss counts as Redis unreachable until it answers a probe in time ([When Redis goes away](operations.md#when-redis-goes-away)).',
  },
  TRUST_PROXY: {
    meaning:
      'The proxies in front of the gateway: comma-separated addresses or CIDR ranges (`10.0.0.0/8,fd00::/8`; also `loopback`, `linklocal`, `uniquelocal`), or `true` when every peer is a proxy. A request from one of them is keyed (rate limits, stream limits, the log line) by the address `X-Forwarded-For` gives, read from the right and skipping the listed proxies. A bare hop count (`1`) is refused: it cannot tell a proxy from a client.',
  },
  CLIENT_IP_HEADER: {
    meaning:
      "A header your proxy sets to the client's address (`fly-client-ip`, `cf-connecting-ip`); takes precedence over `TRUST_PROXY`. Set it only if the proxy overwrites the header, or clients can choose their own address.",
    unset: 'none',
  },
  METRICS_PORT: { meaning: 'Internal port of `GET /metrics`; `0` turns it off.' },
  METRICS_HOST: {
    meaning: 'Where the internal port listens: `127.0.0.1` keeps it on the machine, whatever `HOST` is.',
    unset: '`HOST`',
  },
  LOG_LEVEL: { meaning: 'pino level.' },
  UPSTREAM_TIMEOUT_MS: {
    meaning: 'Deadline for all the upstream work of one client request, retries included.',
  },
  CATALOG_TTL_MS: { meaning: 'How long a loaded copy of the token catalog is fresh (`HIT`).' },
  CATALOG_MAX_STALE_MS: {
    meaning:
      'How long past its freshness a copy may still be served when loads fail. `0`: never serve a copy past its freshness.',
  },
  READINESS_UPSTREAM_WINDOW_MS: {
    meaning:
      'When no upstream answer came for this long, and for two catalog reloads (`2 × CATALOG_TTL_MS`), `/readyz` names the upstream as degraded ([readiness members](operations.md#readiness-members)); it stays `200`.',
  },
  SSE_HEARTBEAT_MS: { meaning: 'Interval of the heartbeat comment on every open stream.' },
  SSE_MAX_PER_IP: {
    meaning: 'Concurrent streams per client address (status and live quote streams together).',
  },
  SSE_MAX_TOTAL: { meaning: 'Concurrent streams per instance (status and live quote streams together).' },
  RATE_LIMITS: {
    meaning:
      'JSON overriding per-group limits, e.g. `{"create":{"max":20,"timeWindow":"1 minute","ipCeiling":10}}`; `ipCeiling` (default 10) × `max` caps all signed-in users of one address.',
    unset: 'the defaults in [Rate limits](operations.md#rate-limits)',
    frontend: true,
  },
  SHUTDOWN_READY_DELAY_MS: {
    meaning:
      'On SIGTERM, how long `/readyz` answers `503` while everything is still served, before the drain begins ([the shutdown](operations.md#the-shutdowns-phases)). `0` drains at once. Outside production, Ctrl-C (SIGINT) skips it.',
  },
  SHUTDOWN_TIMEOUT_MS: {
    meaning:
      'After that, how long in-flight requests and the ends of the streams may take; what is still open then is cut (one warn line gives the count) and the process exits `0`.',
  },
  SESSION_EXPIRY_MARGIN_MS: {
    meaning:
      "How long before the access token's `exp` a session counts as lapsed (create answers `SESSION_EXPIRED`; `expiresAt` is shown this much earlier).",
  },
  SIWX_ALLOW_BARE_MESSAGES: {
    meaning:
      "`true` accepts sign-in messages in the upstream's bare `Nonce: <nonce>` form, which name no site, so no wallet can warn that a phishing page asked for one ([auth.md](auth.md#how-verify-checks-a-message)).",
    frontend: true,
  },
  HEADERS_TIMEOUT_MS: {
    meaning:
      'How long a request head may take to arrive: then `408 REQUEST_TIMEOUT` and the connection is closed. Not above `REQUEST_TIMEOUT_MS`.',
  },
  REQUEST_TIMEOUT_MS: {
    meaning: 'How long a whole request may take to arrive (then `408 REQUEST_TIMEOUT`).',
  },
  KEEP_ALIVE_TIMEOUT_MS: {
    meaning:
      'Idle keep-alive connections are closed after this (above the usual load balancer idle timeout of 60 s).',
  },
  UPSTREAM_MAX_RPS: {
    meaning:
      "At most that many calls to the upstream in any one clock second, across every instance sharing `REDIS_URL`; over it, `503 UPSTREAM_UNAVAILABLE` with `Retry-After` ([The tenant key's quota](operations.md#the-tenant-keys-quota)).",
    unset: 'no cap',
  },
  SSE_RETRY_MS: {
    meaning:
      "Base of each stream's `retry:` advice, spread over ±50 % per stream ([stream docs](stream.md#no-reconnect-storms)).",
  },
  SSE_DRAIN_SPREAD_MS: {
    meaning:
      'The window over which the streams are ended at shutdown, capped to leave a fifth of `SHUTDOWN_TIMEOUT_MS` (at most 1 s) for the rest; `0` ends them at once.',
  },
  QUOTE_REFRESH_MS: {
    meaning:
      'Live quote: the refresh interval shared by every watcher of a distinct quote ([api docs](api.md#live-quote)).',
  },
  QUOTE_STREAM_MAX_SILENCE_MS: {
    meaning: 'Live quote: the longest gap between `quote` events (at least `QUOTE_REFRESH_MS`).',
  },
  QUOTE_STREAM_MAX_MS: { meaning: 'Live quote: the longest life of a stream.' },
  WATCH_MAX_MS: {
    meaning:
      'The watch: how long an order is followed at most ([notifications.md](notifications.md#the-watch)).',
  },
  WATCH_LEASE_MS: {
    meaning:
      "How long an instance holds a watched order without renewing its lease (at least `1000`), which also bounds how late a crashed instance's orders are taken over ([notifications.md](notifications.md#the-watch)).",
  },
  WALLET_EVENTS_RETAIN_MS: {
    meaning:
      "How long each signed-in user's order events are kept (in Redis with `REDIS_URL`) so that a wallet stream's reconnect gets the events it missed; a `Last-Event-ID` older than this gets a fresh snapshot ([stream.md](stream.md#the-wallet-stream)).",
    frontend: true,
  },
  WEBHOOK_URLS: {
    meaning:
      "Where order events are POSTed: comma-separated absolute `http:`/`https:` URLs, the operator's own services. Set together with `WEBHOOK_SECRET` or not at all ([notifications.md](notifications.md#webhooks)).",
    unset: 'no webhooks',
  },
  WEBHOOK_SECRET: {
    meaning:
      'The secrets that sign each delivery: comma-separated, each `whsec_` + the base64 of 24 to 64 random bytes; every one signs, so a receiver can rotate. Never logged.',
    unset: 'required with `WEBHOOK_URLS`',
  },
  WEBHOOK_TIMEOUT_MS: { meaning: "A webhook attempt's deadline: no `2xx` within it is a failed attempt." },
  WEBHOOK_RETRY_SCHEDULE_MS: {
    meaning:
      'The delays between webhook attempts (a JSON array or comma-separated), each spread ±20 %, or `Retry-After` when longer; after the last one the delivery has failed.',
  },
  WEB_PUSH_PUBLIC_KEY: {
    meaning:
      'The VAPID public key (P-256, base64url; `npm run vapid-keys` prints a pair) a page passes to `PushManager.subscribe` ([notifications.md](notifications.md#web-push)).',
    unset: 'outside production a pair is made per process, with a warning; in production Web Push is off',
    frontend: true,
  },
  WEB_PUSH_PRIVATE_KEY: {
    meaning: 'The VAPID private key (base64url) that signs every push. Never logged.',
    unset: 'as `WEB_PUSH_PUBLIC_KEY`',
  },
  WEB_PUSH_SUBJECT: {
    meaning: 'The `mailto:` or `https:` contact push services see in each VAPID token.',
    unset: 'outside production `mailto:web-push@localhost`; in production Web Push is off',
  },
  WEB_PUSH_TTL_S: { meaning: 'How long a push service keeps an undelivered message (the `TTL` header).' },
  WEB_PUSH_MAX_PER_ORDER: { meaning: 'Push subscriptions one order may have.', frontend: true },
  WEB_PUSH_ALLOW_LOCAL_ENDPOINTS: {
    meaning: 'Whether `http:` and loopback push endpoints are admitted (for a local push service in tests).',
    unset: '`true` outside production, `false` in production',
  },
  ...OTEL_SETTINGS,
  DEMO: {
    meaning: '`on` or `off`: the demo app at `/` ([demo.md](demo.md)).',
    unset: 'on; off in production',
    frontend: true,
  },
}
