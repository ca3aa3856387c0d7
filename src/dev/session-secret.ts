// Development only: without SESSION_SECRET, sessions are sealed with a secret kept in a git-ignored
// file of the checkout, so a restart of `npm start` (or of `npm run dev` on each save) keeps every
// session token it issued valid. Production requires SESSION_SECRET and never reads the file.
import { randomBytes } from 'node:crypto'
import { link, readFile, rm, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

/** At the checkout's root (from src/dev/ or dist/dev/ alike). */
export const DEV_SECRET_FILE = fileURLToPath(new URL('../../.dev-session-secret', import.meta.url))

/**
 * The environment with SESSION_SECRET set from the checkout's development secret (made on first
 * use), and the file it came from; unchanged in production or when SESSION_SECRET is set.
 */
export async function withDevelopmentSecret(
  env: NodeJS.ProcessEnv,
): Promise<{ env: NodeJS.ProcessEnv; file?: string }> {
  if (env.NODE_ENV === 'production' || env.SESSION_SECRET) return { env }
  return { env: { ...env, SESSION_SECRET: await developmentSecret() }, file: DEV_SECRET_FILE }
}

async function developmentSecret(): Promise<string> {
  // Written whole under another name, then linked into place: two processes starting at once agree
  // on one secret, and none reads a half-written file.
  const draft = `${DEV_SECRET_FILE}.${process.pid}`
  await writeFile(draft, randomBytes(32).toString('base64url'), { mode: 0o600 })
  try {
    await link(draft, DEV_SECRET_FILE)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  } finally {
    await rm(draft, { force: true })
  }
  return (await readFile(DEV_SECRET_FILE, 'utf8')).trim()
}
