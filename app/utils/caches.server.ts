/**
 * Every cache the console keeps, in one list (issue 34): what each holds, by what key, for how
 * long, how big it may grow and what forgets it. A module that keeps something across requests
 * registers it here where it declares it; `caches.server.test.ts` fails when a module-level Map in
 * a server module is neither registered nor named there as not being a cache. The one
 * forget-on-write path (`forgetOrg`, called by the cluster client before and after every call that
 * may change something) reaches every cache that holds what a write can change.
 *
 * Caches of libraries and the build live outside the console's modules and are listed too, with no
 * size to read (`size` absent): Emotion's styles and the router's matches (decision 033's patch).
 * (Decision 045's render routes made once per build went with its two patches, decision 081.)
 */
export type CacheInfo = {
  /** Short, unique: how tests and the decision name it. */
  name: string
  /** Where it is declared: the file, and the module-level name that holds it (when it has one). */
  file: string
  variable?: string
  /** What one entry holds. */
  holds: string
  key: string
  lifetime: string
  bound: string
  /** What forgets an entry before its lifetime ends. */
  forgottenBy: string
  /** Whether a write through the console may change what it holds: then `forgetOrg` must be given. */
  writesChangeIt: boolean
  /** Forgets what it holds for the org (every session of it): called on every write through the console. */
  forgetOrg?: (orgId: string) => void
  /** How many entries it holds now. */
  size?: () => number
}

// The server (server/app.ts, run from source) and the app (bundled into build/server) are separate
// module instances in production: they share one registry under a global symbol.
const KEY = Symbol.for('cluster-console.caches')
const holder = globalThis as typeof globalThis & { [KEY]?: Map<string, CacheInfo> }
const registry: Map<string, CacheInfo> = (holder[KEY] ??= new Map())

/** Adds (or, when a module is loaded again, replaces) a cache in the list. */
export function registerCache(info: CacheInfo): void {
  if (info.writesChangeIt && !info.forgetOrg)
    throw new Error(`The cache ${info.name} holds what a write can change, so it must say how to forget an org`)
  registry.set(info.name, info)
}

/** Every registered cache, by name. */
export function registeredCaches(): CacheInfo[] {
  return [...registry.values()].sort((a, b) => a.name.localeCompare(b.name))
}

/**
 * Something in the org changed through the console: every cache that holds what a write can change
 * forgets the org, for every session of it.
 */
export function forgetOrg(orgId: string): void {
  for (const info of registry.values()) info.forgetOrg?.(orgId)
}
