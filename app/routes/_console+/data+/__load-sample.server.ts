import type { ClusterApi } from '~/api/client.server'
import { ClusterError } from '~/api/errors.server'
import { toastFromCluster } from '~/api/policies.server'
import { createProject, listProjects, type Project } from '~/api/projects.server'
import { createTable, listTables, type Table } from '~/api/tables.server'
import { createTransform, ingestRows, listTransforms, type TransformBody } from '~/api/transforms.server'
import { safeRedirect } from '~/utils/session.server'
import { redirectWithToast } from '~/utils/toast.server'
import { tableUrl } from './__table-url'

/** The form intent an empty state's "Load the sample" button sends (to /data/tables?index). */
export const LOAD_SAMPLE_INTENT = 'load-sample'

/** What "the sample" is (decision 025): project `sample`, table `logs`, its default JSON transform, SAMPLE_ROWS rows. */
export const SAMPLE = { project: 'sample', table: 'logs', transform: 'logs_json' } as const
export const SAMPLE_ROWS = 480

/** The sample's transform: the columns of an application log line, `timestamp` the primary. */
export const SAMPLE_TRANSFORM: TransformBody = {
  name: SAMPLE.transform,
  description: 'Application logs loaded as the sample',
  type: 'json',
  settings: {
    is_default: true,
    compression: 'none',
    null_values: [],
    format_details: { flattening: { active: false } },
    output_columns: [
      {
        name: 'timestamp',
        datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05.000Z07:00', resolution: 'ms' },
      },
      { name: 'level', datatype: { type: 'string' } },
      { name: 'service', datatype: { type: 'string' } },
      { name: 'host', datatype: { type: 'string' } },
      { name: 'method', datatype: { type: 'string' } },
      { name: 'path', datatype: { type: 'string' } },
      { name: 'status', datatype: { type: 'uint32' } },
      { name: 'duration_ms', datatype: { type: 'double' } },
      { name: 'message', datatype: { type: 'string' } },
      { name: 'trace_id', datatype: { type: 'string' } },
    ],
  },
}

export type SampleRow = {
  timestamp: string
  level: 'debug' | 'info' | 'warn' | 'error'
  service: string
  host: string
  method: string
  path: string
  status: number
  duration_ms: number
  message: string
  trace_id: string
}

const SERVICES = ['checkout', 'catalog', 'search', 'auth', 'payments'] as const
const ROUTES: Record<(typeof SERVICES)[number], { method: string; path: string }[]> = {
  checkout: [
    { method: 'POST', path: '/api/v1/checkout' },
    { method: 'GET', path: '/api/v1/cart' },
  ],
  catalog: [
    { method: 'GET', path: '/api/v1/products' },
    { method: 'GET', path: '/api/v1/products/{id}' },
  ],
  search: [{ method: 'GET', path: '/api/v1/search' }],
  auth: [
    { method: 'POST', path: '/api/v1/login' },
    { method: 'POST', path: '/api/v1/logout' },
  ],
  payments: [
    { method: 'POST', path: '/api/v1/payments' },
    { method: 'GET', path: '/api/v1/payments/{id}' },
  ],
}
const ERROR_MESSAGES = [
  'upstream timed out',
  'connection reset by peer',
  'database deadlock detected',
  'card declined by issuer',
]

/** A small seeded generator (mulberry32): the same seed gives the same rows on every server. */
function random(seed: number) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * The sample's rows: SAMPLE_ROWS application log lines, one every three minutes over the day before
 * `now` (the newest first minute-aligned), from a fixed seed, so only the times depend on `now`.
 * Mostly info with a few warnings (slow calls) and errors (5xx), as a real service logs.
 */
export function sampleRows(now: Date = new Date(), count = SAMPLE_ROWS): SampleRow[] {
  const next = random(20240514)
  const end = Math.floor(now.getTime() / 60_000) * 60_000
  const rows: SampleRow[] = []
  for (let index = 0; index < count; index++) {
    const service = SERVICES[Math.floor(next() * SERVICES.length)]!
    const routes = ROUTES[service]
    const route = routes[Math.floor(next() * routes.length)]!
    const roll = next()
    const status =
      roll < 0.04
        ? [500, 502, 503][Math.floor(next() * 3)]!
        : roll < 0.1
          ? [400, 401, 404][Math.floor(next() * 3)]!
          : route.method === 'POST'
            ? 201
            : 200
    const duration = Math.round((status >= 500 ? 800 + next() * 4200 : 5 + next() ** 3 * 900) * 10) / 10
    const level: SampleRow['level'] =
      status >= 500 ? 'error' : status >= 400 || duration > 600 ? 'warn' : next() < 0.15 ? 'debug' : 'info'
    const path = route.path.replace('{id}', String(1000 + Math.floor(next() * 9000)))
    const message =
      status >= 500
        ? `${route.method} ${path} failed: ${ERROR_MESSAGES[Math.floor(next() * ERROR_MESSAGES.length)]}`
        : level === 'warn' && status < 400
          ? `${route.method} ${path} slow: ${duration} ms`
          : `${route.method} ${path} ${status}`
    rows.push({
      timestamp: new Date(end - index * 180_000 - Math.floor(next() * 170_000)).toISOString(),
      level,
      service,
      host: `${service}-${1 + Math.floor(next() * 3)}.prod.internal`,
      method: route.method,
      path,
      status,
      duration_ms: duration,
      message,
      trace_id: Array.from({ length: 16 }, () => Math.floor(next() * 16).toString(16)).join(''),
    })
  }
  return rows
}

/**
 * "Load the sample": creates (or reuses) project `sample`, creates table `logs` with its transform
 * and ingests the sample rows, then redirects to the table with a toast. When `sample.logs` already
 * exists nothing is created or ingested again: it redirects there saying so. A cluster failure
 * redirects to `redirectTo` (safeRedirect) with the catalogue's toast, naming what was made before it.
 */
export async function loadSampleAction(api: ClusterApi, formData: FormData): Promise<Response> {
  const back = safeRedirect(formData.get('redirectTo'), '/data/tables')
  const made: string[] = []
  try {
    let project: Project | undefined = (await listProjects(api)).find((candidate) => candidate.name === SAMPLE.project)
    if (!project) {
      project = await createProject(api, { name: SAMPLE.project, description: 'Sample data loaded from the console' })
      made.push(`project ${SAMPLE.project}`)
    }
    const existing: Table | undefined = (await listTables(api, project.uuid)).find(
      (table) => table.name === SAMPLE.table,
    )
    if (existing) {
      return redirectWithToast(tableUrl(existing.uuid, project.uuid), {
        title: `The sample is already loaded: ${SAMPLE.project}.${SAMPLE.table}`,
        type: 'info',
      })
    }
    const table = await createTable(api, project.uuid, {
      name: SAMPLE.table,
      description: 'Sample application logs: one day, five services',
    })
    made.push(`table ${SAMPLE.table}`)
    const transforms = await listTransforms(api, project.uuid, table.uuid)
    if (!transforms.some((transform) => transform.name === SAMPLE.transform)) {
      await createTransform(api, project.uuid, table.uuid, SAMPLE_TRANSFORM)
      made.push(`transform ${SAMPLE.transform}`)
    }
    const rows = sampleRows()
    const result = await ingestRows(
      api,
      `${SAMPLE.project}.${SAMPLE.table}`,
      SAMPLE.transform,
      JSON.stringify(rows),
      'json',
    )
    return redirectWithToast(tableUrl(table.uuid, project.uuid), {
      title: `Sample loaded: ${result.rows ?? rows.length} rows in ${SAMPLE.project}.${SAMPLE.table}`,
      description: 'Query it from the Query page, or read its transform under Transforms.',
      type: 'success',
    })
  } catch (error) {
    if (!(error instanceof ClusterError)) throw error
    const toast = toastFromCluster(error)
    const before = made.length ? `Created before the failure: ${made.join(', ')}.` : ''
    return redirectWithToast(back, {
      ...toast,
      title: `The sample could not be loaded: ${toast.title}`,
      description: [toast.description, before].filter(Boolean).join(' ') || undefined,
    })
  }
}
