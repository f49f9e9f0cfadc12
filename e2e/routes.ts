import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { E2E_BASE_URL } from './env'
import { clusterCall } from './cluster-faults'
import { uniqueName } from './fixtures'

/**
 * The console's routes as the server build has them, so that checks over "every route" (fuzzing,
 * accessibility) take in each new section without being edited.
 */
export type BuiltRoute = { id: string; path: string; hasAction: boolean; hasComponent: boolean; isPage: boolean }

type BuildRoute = {
  id: string
  path?: string
  index?: boolean
  parentId?: string
  module: { action?: unknown; default?: unknown }
}

export async function builtRoutes(): Promise<BuiltRoute[]> {
  const build = (await import(pathToFileURL(path.resolve('build/server/index.js')).href)) as {
    routes: Record<string, BuildRoute>
  }
  const parents = new Set(Object.values(build.routes).map((route) => route.parentId))
  const fullPath = (id: string | undefined): string => {
    if (!id) return ''
    const route = build.routes[id]!
    const own = route.path ?? ''
    const parent = fullPath(route.parentId)
    return own ? `${parent}/${own}`.replace(/\/+/g, '/') : parent
  }
  return Object.values(build.routes)
    .map((route) => ({
      id: route.id,
      path: fullPath(route.id) || '/',
      hasAction: Boolean(route.module.action),
      hasComponent: Boolean(route.module.default),
      // a page a user lands on: it renders, and no other route renders inside it
      isPage: Boolean(route.module.default) && !parents.has(route.id),
    }))
    .sort((a, b) => a.path.localeCompare(b.path))
}

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000'

/** A route's path with its parameters filled from `ids` (an unknown id otherwise; `*` becomes a missing page). */
export function concretePath(routePath: string, ids: Record<string, string>): string {
  return routePath
    .replace(/:(\w+)\??/g, (_, name: string) => encodeURIComponent(ids[name] ?? UNKNOWN_ID))
    .replace(/\*$/, 'no-such-page')
}

/** The Cookie header of a signed-in browser context's storage state. */
export function cookieHeader(state: { cookies: { name: string; value: string }[] }): string {
  return state.cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ')
}

/** Creates a project and a table through the console's own form (plain HTTP); returns the table's id. */
export async function createTableByPost(cookie: string, prefix: string): Promise<string> {
  const answer = await fetch(`${E2E_BASE_URL}/data/new-table`, {
    method: 'POST',
    redirect: 'manual',
    headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams([
      ['project', '__new__'],
      ['newProjectName', uniqueName(`${prefix}_p`)],
      ['name', uniqueName(`${prefix}_t`)],
    ]).toString(),
  })
  const tableId = /\/data\/tables\/([0-9a-f-]{36})/.exec(answer.headers.get('location') ?? '')?.[1]
  if (!tableId) throw new Error(`creating a table answered ${answer.status}: ${(await answer.text()).slice(0, 500)}`)
  return tableId
}

/** POSTs `fields` to a console form (plain HTTP); returns the id in the redirect's path after `prefix`. */
async function createByPost(cookie: string, url: string, fields: [string, string][], prefix: string): Promise<string> {
  const answer = await fetch(`${E2E_BASE_URL}${url}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  })
  const id = new RegExp(`${prefix}([0-9a-f-]{36})`).exec(answer.headers.get('location') ?? '')?.[1]
  if (!id) throw new Error(`POST ${url} answered ${answer.status}: ${(await answer.text()).slice(0, 500)}`)
  return id
}

/** Creates an AWS access-key credential through the console's form (plain HTTP); returns its id. */
export function createCredentialByPost(cookie: string, prefix: string): Promise<string> {
  return createByPost(
    cookie,
    '/security/new-credential',
    [
      ['name', uniqueName(`${prefix}_cred`)],
      ['type', 'aws_access_keys'],
      ['details.access_key_id', 'AKIAFUZZ'],
      ['details.secret_access_key', 'fuzz-secret'],
    ],
    '/security/credentials/',
  )
}

/** Creates a bucket (using `credentialId` when given) through the console's form (plain HTTP); returns its id. */
export function createBucketByPost(cookie: string, prefix: string, credentialId?: string): Promise<string> {
  return createByPost(
    cookie,
    '/security/new-bucket',
    [
      ['name', uniqueName(`${prefix}_bucket`)],
      ['bucket_name', `${prefix}-data`],
      ['cloud', 'aws'],
      ['region', 'us-east-1'],
      ...(credentialId ? ([['credential_id', credentialId]] as [string, string][]) : []),
    ],
    '/security/buckets/',
  )
}

/**
 * A project's table with a transform, a view, a kafka source, an auto batch entry (its settings'
 * `autoingest[0]`) and a summary table over it, and their ids.
 */
export type TableChildren = {
  projectId: string
  tableId: string
  transformId: string
  viewId: string
  sourceId: string
  summaryTableId: string
}

/**
 * Creates, through the cluster API, a project and a table with what the table's edit forms work on:
 * a transform (a kafka source needs one), a view, a kafka source, an auto batch entry as another tool
 * leaves it (a bare queue name, an unknown key) and a summary table selecting from it.
 */
export async function createTableChildren(prefix: string): Promise<TableChildren> {
  const project = uniqueName(`${prefix}_p`)
  const table = uniqueName(`${prefix}_t`)
  const { uuid: projectId } = await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', {
    name: project,
  })
  const tables = `/config/v1/orgs/{org}/projects/${projectId}/tables/`
  const { uuid: tableId } = await clusterCall<{ uuid: string }>('POST', tables, {
    name: table,
    settings: {
      autoingest: [
        { enabled: false, source: 'fuzz-files', pattern: '.*\\.gz$', max_rows_per_partition: 1000, x_extra: 1 },
      ],
    },
  })
  const columns = [
    { name: 'timestamp', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z' } },
    { name: 'message', datatype: { type: 'string' } },
  ]
  const transform = uniqueName(`${prefix}_json`)
  const { uuid: transformId } = await clusterCall<{ uuid: string }>('POST', `${tables}${tableId}/transforms/`, {
    name: transform,
    type: 'json',
    settings: { is_default: true, output_columns: columns },
  })
  const { uuid: viewId } = await clusterCall<{ uuid: string }>('POST', `${tables}${tableId}/views/`, {
    name: uniqueName(`${prefix}_view`),
    settings: { is_default: false, output_columns: columns },
  })
  const { uuid: sourceId } = await clusterCall<{ uuid: string }>('POST', `${tables}${tableId}/sources/kafka/`, {
    name: uniqueName(`${prefix}_kafka`),
    transform,
    settings: { bootstrap_servers: ['kafka.invalid:9092'], topics: ['fuzz'] },
  })
  const { uuid: summaryTableId } = await clusterCall<{ uuid: string }>('POST', tables, {
    name: uniqueName(`${prefix}_sum`),
    type: 'summary',
    settings: {
      summary: {
        sql: `SELECT toStartOfMinute(timestamp) AS timestamp, count() AS n FROM ${project}.${table} GROUP BY timestamp`,
      },
    },
  })
  return { projectId, tableId, transformId, viewId, sourceId, summaryTableId }
}

/** A function, a dictionary file and a dictionary over it (in a project), a pool, a role and a user, and their ids. */
export type OtherObjects = {
  functionId: string
  name: string
  dictionaryId: string
  poolId: string
  roleId: string
  userId: string
}

/**
 * Creates, through the cluster API, what the catalogue, scale and people edit forms work on, each as
 * another tool leaves it (a key no form shows): in `projectId` a function, a dictionary file and a
 * dictionary over it; a pool, a role (its one policy reads that project) and a reader user.
 */
export async function createOtherObjects(prefix: string, projectId: string): Promise<OtherObjects> {
  const project = `/config/v1/orgs/{org}/projects/${projectId}`
  const { uuid: functionId } = await clusterCall<{ uuid: string }>('POST', `${project}/functions/`, {
    name: uniqueName(`${prefix}_fn`),
    sql: '(x, k) -> x * k',
    x_extra: 'kept',
  })
  const name = `${uniqueName(`${prefix}_file`)}.csv`
  const file = new FormData()
  file.append('name', name)
  file.append('file', new File(['id,label\n1,one\n2,two\n'], name, { type: 'text/csv' }))
  await clusterCall('POST', `${project}/dictionaries/files/`, file).catch((error: Error) => {
    // a file upload that answers no JSON still made the file; a refusal says so
    if (!(error instanceof SyntaxError)) throw error
  })
  const { uuid: dictionaryId } = await clusterCall<{ uuid: string }>('POST', `${project}/dictionaries/`, {
    name: uniqueName(`${prefix}_dict`),
    settings: {
      filename: name,
      format: 'CSVWithNames',
      layout: 'hashed',
      lifetime_seconds: 300,
      primary_key: ['id'],
      output_columns: [
        { name: 'id', datatype: { type: 'uint64' } },
        { name: 'label', datatype: { type: 'string' } },
      ],
      x_extra: 'kept',
    },
  })
  const { uuid: poolId } = await clusterCall<{ uuid: string }>('POST', '/config/v1/pools/', {
    name: uniqueName(`${prefix}-pool`).replace(/_/g, '-'),
    settings: { k8s_deployment: { service: 'merge-peer', replicas: '1', cpu: '1', memory: '1Gi', storage: '1Gi' } },
  })
  const { id: roleId } = await clusterCall<{ id: number }>('POST', '/config/v1/roles/', {
    name: uniqueName(`${prefix}_role`),
    policies: [{ permissions: ['view_org', 'view_project'], scope_type: 'project', scope_id: projectId }],
  })
  const { uuid: userId } = await clusterCall<{ uuid: string }>('POST', '/config/v1/users/', {
    email: `${uniqueName(`${prefix}_user`)}@example.com`.toLowerCase(),
    password: 'a-long-password-1',
    roles: ['reader'],
  })
  return { functionId, name, dictionaryId, poolId, roleId: String(roleId), userId }
}
