// Tests import the client as its users do, by name (`swap-gateway-client`), but from its TypeScript
// sources, so a test needs no build and its coverage counts packages/client/src. The package itself
// exports only its build; this resolve hook, loaded by tap (.taprc), maps the name to the sources.
import { register } from 'node:module'

register('./client-sources-hooks.ts', import.meta.url)
