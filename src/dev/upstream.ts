// The built-in sandbox, started by server.ts when no UPSTREAM_URL is configured (development only).
// It is loaded by a specifier the compiler cannot follow, so neither the sandbox's code nor its
// dependencies are part of the production build (tsconfig.build.json leaves src/sandbox out).

/** The built-in sandbox as buildApp sees it (development only). */
export interface BuiltInSandbox {
  /** Where it listens: its control routes are mounted at `${apiPrefix}/sandbox/…`. */
  url: string
  /**
   * Whether it has lapsed this access token before its `exp` (its session-lapse control), so the
   * gateway, which reads a session's expiry from the token, sees the lapse at once.
   */
  lapsed(accessToken: string): boolean
}

/** What server.ts needs of a running sandbox; src/sandbox/start.ts implements it. */
export interface DevUpstream extends BuiltInSandbox {
  close(): Promise<void>
}
export type StartDevUpstream = (opts: { tenantKey: string }) => Promise<DevUpstream>

const SANDBOX_ENTRY = '../sandbox/start.js'

export async function startDevUpstream(tenantKey: string): Promise<DevUpstream> {
  let module: { startSandbox: StartDevUpstream }
  try {
    module = (await import(new URL(SANDBOX_ENTRY, import.meta.url).href)) as typeof module
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw err
    throw new Error(
      'UPSTREAM_URL is not set and this build has no sandbox (it is left out of `npm run build`): set UPSTREAM_URL, or run `npm start` from the sources',
      { cause: err },
    )
  }
  return module.startSandbox({ tenantKey })
}
