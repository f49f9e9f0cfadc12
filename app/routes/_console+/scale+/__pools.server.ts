import type { ClusterApi } from '~/api/client.server'
import { settle, type Settled } from '~/api/policies.server'
import { listPools, type Pool } from '~/api/pools.server'
import { deepFreeze } from '~/api/shared-answers.server'
import { registerCache } from '~/utils/caches.server'
import { listProjectsBriefly, searchTables, type TableChoice } from '~/api/table-search.server'
import { listPage, parsePaging } from '~/components/data-table/paging'
import { kindOfPool, parseCpu, parseReplicas, parseSize, type PoolKind } from '~/schemas/pool'

/** A pool as its list shows it: the cluster's words and the figures read from them (null when unreadable). */
export type PoolRow = {
  uuid: string
  name: string
  description: string
  service: string
  table: string
  transform: string
  isDefault: boolean
  replicas: { min: number; max: number } | null
  replicasText: string
  cpu: number | null
  cpuText: string
  memory: number | null
  memoryText: string
  storage: number | null
  storageText: string
  /** This pool's share of its kind's CPU at the most replicas (0 to 1), for the capacity bar. */
  cpuShare: number
}

/** A kind's capacity at its fewest and most replicas (autoscaled pools count both ends). */
export type PoolTotals = {
  pools: number
  replicas: { min: number; max: number }
  cpu: { min: number; max: number }
  memory: { min: number; max: number }
  storage: { min: number; max: number }
  /** Pools whose size could not be read, left out of the totals. */
  unreadable: number
}

const text = (value: unknown) => (value === undefined || value === null || value === '' ? '' : String(value))

/** Returns the row for a pool (its share of CPU still 0). */
export function poolRow(pool: Pool): PoolRow {
  const k8s = pool.settings?.k8s_deployment ?? {}
  return {
    uuid: pool.uuid,
    name: pool.name,
    description: pool.description ?? '',
    service: text(k8s.service),
    table: text(pool.settings?.table),
    transform: text(pool.settings?.transform),
    isDefault: Boolean(pool.settings?.is_default),
    replicas: parseReplicas(k8s.replicas),
    replicasText: text(k8s.replicas),
    cpu: parseCpu(k8s.cpu),
    cpuText: text(k8s.cpu),
    memory: parseSize(k8s.memory),
    memoryText: text(k8s.memory),
    storage: parseSize(k8s.storage),
    storageText: text(k8s.storage),
    cpuShare: 0,
  }
}

/** Returns the totals of `rows`: each size times the replicas, at the fewest and the most replicas. */
export function poolTotals(rows: readonly PoolRow[]): PoolTotals {
  const totals: PoolTotals = {
    pools: rows.length,
    replicas: { min: 0, max: 0 },
    cpu: { min: 0, max: 0 },
    memory: { min: 0, max: 0 },
    storage: { min: 0, max: 0 },
    unreadable: 0,
  }
  for (const row of rows) {
    if (!row.replicas) {
      totals.unreadable++
      continue
    }
    totals.replicas.min += row.replicas.min
    totals.replicas.max += row.replicas.max
    for (const key of ['cpu', 'memory', 'storage'] as const) {
      const each = row[key]
      if (each === null) continue
      totals[key].min += each * row.replicas.min
      totals[key].max += each * row.replicas.max
    }
    if (row.cpu === null || row.memory === null || row.storage === null) totals.unreadable++
  }
  return totals
}

/** A table on the ingest tab: where it lives and the ingest pools that write into it. */
export type IngestTable = {
  /** `project.table`, as pools name it. */
  name: string
  uuid: string
  projectId: string
  pools: { uuid: string; name: string; service: string }[]
  replicas: { min: number; max: number }
  cpu: { min: number; max: number }
}

/** The most tables the ingest tab lists (issue 33: a page shows what a person can read). */
export const INGEST_TABLES_SHOWN = 25

/**
 * The tables the ingest tab lists with the ingest pools (of `rows`) that write into them, tables with
 * pools first (by name), then the org's first tables without one, at most INGEST_TABLES_SHOWN: the
 * tables with pools are read by name (the pools name them `project.table`), the others are one page
 * of the first project's tables, so the tab costs the same at 10,000 tables (issue 33). A filter (`q`, the
 * tab's own) narrows both to the tables whose `project.table` holds it, so any table is a search away.
 * Throws ClusterError.
 */
export async function loadIngestTables(
  api: ClusterApi,
  rows: readonly PoolRow[],
  q = '',
  /** The search for the first tables, when the caller started it already (beside another read). */
  firstTables?: Promise<{ choices: TableChoice[] }>,
): Promise<IngestTable[]> {
  const needle = q.trim().toLowerCase()
  const named = [...new Set(rows.map((row) => row.table).filter(Boolean))]
    .filter((name) => name.toLowerCase().includes(needle))
    .sort()
    .slice(0, INGEST_TABLES_SHOWN)
  // the projects of the request's read (the first tables' search reads them too)
  const projects = await listProjectsBriefly(api)
  const withPools = await Promise.all(
    named.map(async (name) => {
      const dot = name.indexOf('.')
      const project = projects.find((entry) => entry.name === name.slice(0, dot))
      if (dot <= 0 || !project) return null
      const answer = await api.list<{ uuid: string; name: string }>(
        `/orgs/${api.orgId}/projects/${encodeURIComponent(project.uuid)}/tables/`,
        { params: { name: name.slice(dot + 1) } },
      )
      const table = answer.results.find((entry) => entry.name === name.slice(dot + 1))
      return table ? { name, uuid: table.uuid, projectId: project.uuid } : null
    }),
  )
  const tables = withPools.filter((entry) => entry !== null)
  if (tables.length < INGEST_TABLES_SHOWN) {
    const { choices } = await (firstTables ?? searchTables(api, q.trim(), INGEST_TABLES_SHOWN))
    for (const choice of choices) {
      const name = `${choice.project}.${choice.name}`
      if (tables.length >= INGEST_TABLES_SHOWN) break
      if (!tables.some((entry) => entry.name === name))
        tables.push({ name, uuid: choice.uuid, projectId: choice.projectId })
    }
  }
  // the pools of each table shown, in one pass over the rows (not one per table)
  const poolsOf = new Map<string, PoolRow[]>(tables.map((table) => [table.name, []]))
  for (const row of rows) poolsOf.get(row.table)?.push(row)
  return tables.map(({ name, uuid, projectId }) => {
    const pools = poolsOf.get(name)!
    const totals = poolTotals(pools)
    return {
      name,
      uuid,
      projectId,
      pools: pools.map((row) => ({ uuid: row.uuid, name: row.name, service: row.service })),
      replicas: totals.replicas,
      cpu: totals.cpu,
    }
  })
}

/** Each kind's rows and totals of a pools list, kept with the list (decision 089). */
const rowsByList = new WeakMap<readonly Pool[], Map<PoolKind, { rows: readonly PoolRow[]; totals: PoolTotals }>>()

registerCache({
  name: 'pool-rows',
  file: 'app/routes/_console+/scale+/__pools.server.ts',
  variable: 'rowsByList',
  holds: "one kind's pool rows and totals, worked out from a pools list",
  key: 'the pools list itself (a shared answer is one object while the cluster answers the same bytes)',
  lifetime: 'the list (garbage collected with it)',
  bound: 'the pools lists alive (the shared answers kept, and the requests in flight)',
  forgottenBy: 'the list going (a changed answer is a new list)',
  writesChangeIt: false,
})

/**
 * The rows of `kind`'s pools (each with its share of the kind's CPU) and their totals, worked out
 * once per pools list: the list of the org's pools is shared while the cluster answers the same
 * bytes (`parseShared`), so 500 pools are not read into rows again on every Scale tab. Frozen.
 */
function rowsOfKind(pools: readonly Pool[], kind: PoolKind) {
  let kinds = rowsByList.get(pools)
  if (!kinds) rowsByList.set(pools, (kinds = new Map()))
  let entry = kinds.get(kind)
  if (!entry) {
    const rows = pools
      .filter((pool) => kindOfPool(pool.type, pool.settings?.k8s_deployment?.service) === kind)
      .map(poolRow)
    const totals = poolTotals(rows)
    for (const row of rows) {
      row.cpuShare =
        row.cpu !== null && row.replicas && totals.cpu.max > 0 ? (row.cpu * row.replicas.max) / totals.cpu.max : 0
    }
    entry = deepFreeze({ rows, totals })
    kinds.set(kind, entry)
  }
  return entry
}

/**
 * The list of one kind's pools for its Scale tab: every pool of the kind (filtered by `?q=` on
 * name, service, table or description, then paged), the kind's totals over all its pools, and how
 * many pools the other kinds have (for the empty state). Throws ClusterError.
 */
export async function loadPoolList(api: ClusterApi, kind: PoolKind, url: URL) {
  const paging = parsePaging(url)
  // the ingest tab's first tables are asked beside the pools (they do not depend on them); a failure
  // there is the tables panel's alone (settled below), never an unhandled rejection
  const firstTables = kind === 'ingest' ? searchTables(api, paging.q.trim(), INGEST_TABLES_SHOWN) : null
  firstTables?.catch(() => {})
  const pools = await listPools(api)
  const { rows, totals } = rowsOfKind(pools, kind)
  const needle = paging.q.toLowerCase()
  const shown = needle
    ? rows.filter((row) =>
        [row.name, row.service, row.table, row.description].some((value) => value.toLowerCase().includes(needle)),
      )
    : rows
  // The ingest tab also shows every table with the pools that write into it: a bonus panel, so a
  // failure there leaves the pools on screen.
  const tables: Settled<IngestTable[]> | null =
    kind === 'ingest' && firstTables ? await settle(() => loadIngestTables(api, rows, paging.q, firstTables)) : null
  return { kind, ...listPage(shown, paging), totals, allPools: pools.length, tables }
}
