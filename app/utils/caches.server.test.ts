import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { forgetOrg, registerCache, registeredCaches } from './caches.server'

// Every module that keeps something across requests, so that each registers as it would in the server.
import '~/entry.server'
import '~/api/client.server'
import '~/api/read-cache.server'
import '~/api/revocations.server'
import '~/api/saved-queries.server'
import '~/api/tables.server'
import '~/utils/session.server'
import '~/routes/_console+/data+/__ingest-once.server'
import '~/services/query/result-cache.server'
import '~/services/query/saved.server'
import '~/services/query/schema.server'
import '~/routes/_console+/scale+/__pools.server'

/**
 * Module-level collections that are not caches of anything the cluster or a user holds, with why.
 * A new one is either registered as a cache or added here with its reason: never neither.
 */
const NOT_CACHES: Record<string, string> = {
  'app/api/saved-queries.server.ts:writers': 'a write queue: runs waiting for their one-a-second write (decision 053)',
  'app/utils/caches.server.ts:registry': 'the registry itself',
  'app/utils/format-number.ts:formats': 'Intl.NumberFormat objects by their options: made once, never stale',
  'app/utils/format-date.ts:formatters': 'Intl.DateTimeFormat objects by their options: made once, never stale',
  'app/utils/engine-time.ts:parts': 'Intl.DateTimeFormat objects by zone (at most 64): made once, never stale',
  'app/utils/engine-time.ts:buckets':
    "a zone's offset and name by quarter hour (at most 4,096): a function of the zone database, never stale",
  'app/utils/chart-ticks.ts:numberFormats':
    "Intl.NumberFormat objects by a tick step's decimals: made once, never stale",
  'app/utils/before-close.server.ts:tasks': 'the work to finish before the process stops (decision on graceful stop)',
  'app/components/forms/use-lazy-schema-form.ts:loaded': "a browser's validators, by the loader that imports them",
  'app/components/ui/plain.tsx:compiled':
    "each plain element's CSS by its component and style props (at most 2,000): a function of the theme, never stale (decision 112)",
  'app/components/ui/plain.tsx:definedCss':
    'the number of each css constant made by defineCss: module constants, by identity',
  'app/components/layout/detail-list.tsx:listCss': "a description list's style by label width: made once, never stale",
}

const EXPECTED = [
  'answers-by-generation',
  'cluster-clients',
  'current-user-revalidated',
  'history-not-recording',
  'history-recent-rows',
  'history-recent-runs',
  'history-store-set-up',
  'ingest-tokens',
  'once-per-request',
  'pool-rows',
  'query-results',
  'query-stops',
  'reads-kept',
  'reads-per-request',
  'router-matches',
  'server-routes',
  'sessions-read',
  'sessions-revoked',
  'sessions-revoked-shared',
  'shared-answers',
  'styles',
  'table-projects',
]

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(full)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : []
  })
}

/**
 * `file:name` of every collection declared at a module's top level (`const x = new Map(`…); names in
 * capitals are constants by the house's convention and left out.
 */
function moduleCollections(): string[] {
  return sourceFiles('app').flatMap((file) =>
    [
      ...readFileSync(file, 'utf8').matchAll(
        /^(?:export )?(?:const|let) ([a-z]\w*)(?::.*?)? = \(?(?:holder\[KEY\] \?\?= )?new (?:Map|WeakMap|Set)\b/gm,
      ),
    ].map((match) => `${file.split(path.sep).join('/')}:${match[1]}`),
  )
}

describe('the cache registry (issue 34)', () => {
  it('lists every cache the console keeps, each saying what it holds, its key, lifetime, bound and what forgets it', () => {
    const caches = registeredCaches()
    expect(caches.map((cache) => cache.name)).toEqual(EXPECTED)
    for (const cache of caches) {
      for (const field of ['file', 'holds', 'key', 'lifetime', 'bound', 'forgottenBy'] as const)
        expect(cache[field], `${cache.name}.${field}`).toMatch(/\S/)
      // a count of entries (a size that answers undefined, NaN or the collection itself fails here)
      if (cache.size) expect(Number.isSafeInteger(cache.size()) && cache.size() >= 0, `${cache.name}.size()`).toBe(true)
    }
  })

  it('finds no collection at a module top level that is neither a registered cache nor named as not being one', () => {
    const registered = new Set(
      registeredCaches().flatMap((cache) => (cache.variable ? [`${cache.file}:${cache.variable}`] : [])),
    )
    const found = moduleCollections()
    // the scan itself finds what it must (it would pass on nothing otherwise)
    expect(found).toContain('app/api/read-cache.server.ts:kept')
    expect(found).toContain('app/utils/format-date.ts:formatters')
    const unaccounted = found.filter((name) => !registered.has(name) && !(name in NOT_CACHES))
    expect(
      unaccounted,
      'register each as a cache (app/utils/caches.server.ts) or say in NOT_CACHES why it is not one',
    ).toEqual([])
    // and every name in either list is still there
    for (const name of [...registered, ...Object.keys(NOT_CACHES)]) expect(found, name).toContain(name)
  })

  it('has the one forget-on-write path reach every cache holding what a write can change, and only for that org', () => {
    const changing = registeredCaches().filter((cache) => cache.writesChangeIt)
    expect(changing.map((cache) => cache.name)).toEqual(['reads-kept'])
    const told: string[] = []
    registerCache({
      name: 'zz-test',
      file: 'app/utils/caches.server.test.ts',
      holds: 'orgs told',
      key: 'none',
      lifetime: 'the test',
      bound: 'none',
      forgottenBy: 'nothing',
      writesChangeIt: true,
      forgetOrg: (orgId) => told.push(orgId),
    })
    forgetOrg('org-a')
    expect(told).toEqual(['org-a'])
    expect(() =>
      registerCache({
        name: 'zz-bad',
        file: 'x',
        holds: 'x',
        key: 'x',
        lifetime: 'x',
        bound: 'x',
        forgottenBy: 'x',
        writesChangeIt: true,
      }),
    ).toThrow(/must say how to forget an org/)
  })
})
