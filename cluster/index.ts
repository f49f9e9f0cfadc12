import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { ClusterOptions, ClusterState, Ctx, LogEntry, MailEntry, ResolvedOptions } from './context'
import { signToken } from './auth'
import { HttpError, isVersionBefore, json, readJsonObject, renewStamps, withBody } from './http'
import { Metrics } from './metrics'
import { Router } from './router'
import { Store } from './store'
import { poolOfRequest, withPool, currentPool } from './pool-context'
import { bootstrap, registerConfigRoutes } from './config'
import { checkBasicCredentials } from './config/access'
import { createDataPlane } from './data'
import { NodeRequest, type ClusterRequest } from './node-http'

export type { ClusterOptions } from './context'

export const DEFAULT_VERSION = 'v5.12.0'

export type ClusterHandler = ((request: ClusterRequest) => Promise<Response>) & {
  /** Stops background work and releases the data directory. */
  close(): Promise<void>
  /** The org created on first start and its admin's credentials. */
  orgId: string
  admin: { email: string; password: string }
  state: ClusterState
}

interface Fault {
  method?: string
  path: string
  status?: number
  body?: unknown
  /** Send a string `body` as it is (e.g. broken JSON), not JSON-encoded. */
  raw?: boolean
  hangMs?: number
  drop?: boolean
  times?: number
}

/**
 * Builds a local cluster on `options.dataDir` and returns its fetch-style request handler.
 * Throws when the data directory is held by another live process.
 */
export async function createCluster(options: ClusterOptions): Promise<ClusterHandler> {
  const resolved = resolveOptions(options)
  fs.mkdirSync(resolved.dataDir, { recursive: true })
  fs.mkdirSync(resolved.importDir, { recursive: true })
  const store = Store.open(path.join(resolved.dataDir, 'store'))
  const logs: LogEntry[] = []
  const outbox: MailEntry[] = []
  const outboxFile = path.join(resolved.dataDir, 'outbox.jsonl')
  const state = {
    options: resolved,
    store,
    secret: loadSecret(resolved.dataDir),
    metrics: new Metrics(),
    logs,
    log(entry: Omit<LogEntry, 'timestamp'>) {
      const pool = entry.pool ?? currentPool()
      logs.push({ timestamp: new Date().toISOString(), ...entry, ...(pool ? { pool } : {}) })
      if (logs.length > 50_000) logs.splice(0, logs.length - 50_000)
    },
    outbox,
    mail(entry: Omit<MailEntry, 'timestamp'>) {
      const mail: MailEntry = { timestamp: new Date().toISOString(), ...entry }
      outbox.push(mail)
      if (outbox.length > 1_000) outbox.splice(0, outbox.length - 1_000)
      fs.appendFileSync(outboxFile, JSON.stringify(mail) + '\n', { mode: 0o600 })
    },
  } as ClusterState
  try {
    state.data = await createDataPlane(state)
  } catch (error) {
    store.close()
    throw error
  }

  const router = new Router<Ctx>()
  registerConfigRoutes(router, state)
  state.data.register(router)

  const faults: Fault[] = []

  // The node server writes a reply's kept bytes; any other caller reads the Response (http.ts `reply`).
  const handler = (async (request: ClusterRequest): Promise<Response> => {
    const response = await answer(request)
    return request instanceof NodeRequest ? response : withBody(response)
  }) as ClusterHandler

  const answer = async (request: ClusterRequest): Promise<Response> => {
    const started = performance.now()
    const url = new URL(request.url)
    const service = serviceOf(url.pathname)
    const pool = poolOfRequest(store, url)
    let response: Response
    try {
      if (url.pathname.startsWith('/__faults')) {
        response = await handleFaults(request, faults, resolved.faults)
      } else {
        const fault = faults.find(
          (f) => (!f.method || f.method === request.method) && new RegExp(f.path).test(url.pathname),
        )
        if (fault) {
          if (fault.times !== undefined && --fault.times <= 0) faults.splice(faults.indexOf(fault), 1)
          if (fault.hangMs) await new Promise((r) => setTimeout(r, fault.hangMs))
          if (fault.drop) return Response.error()
          if (fault.status && fault.raw && typeof fault.body === 'string') {
            return new Response(fault.body, { status: fault.status, headers: { 'Content-Type': 'application/json' } })
          }
          if (fault.status) return json(fault.body ?? { detail: `Injected fault ${fault.status}` }, fault.status)
        }
        const { handler: routeHandler, params } = router.match(request.method, aliasOf(url.pathname))
        await checkBasicCredentials(state, request)
        response = await withPool(pool, () => routeHandler({ request, url, params, cluster: state }))
      }
    } catch (error) {
      if (error instanceof HttpError) response = error.toResponse()
      else {
        const message = error instanceof Error ? error.message : String(error)
        state.log({
          level: 'error',
          service,
          component: 'http',
          message: `${request.method} ${url.pathname} failed`,
          error: message,
          pool,
        })
        response = json({ detail: 'Internal server error.' }, 500)
      }
    }
    const status = String(response.status)
    state.metrics.inc('http_requests_total', { service, status, ...(pool ? { pool } : {}) })
    state.metrics.inc('http_request_duration_ms_sum', { service }, performance.now() - started)
    if (response.status >= 500) state.metrics.inc('http_errors_total', { service, ...(pool ? { pool } : {}) })
    return response
  }

  const { orgId, admin, adminId, isFirstStart } = await bootstrap(state)
  if (isFirstStart || !store.get('meta', 'seeded')) {
    if (resolved.seedRows > 0) {
      // The sample data goes through the cluster's own API, so it has exactly the shapes clients see.
      const token = signToken(state.secret, { sub: adminId, typ: 'user', exp: Math.floor(Date.now() / 1000) + 3600 })
      // body: an object (sent as JSON), a string (as is) or FormData (multipart, e.g. a dictionary file)
      const call = async (method: string, pathname: string, body?: unknown) => {
        const multipart = body instanceof FormData
        const response = await handler(
          new Request(`http://local-cluster${pathname}`, {
            method,
            headers: { authorization: `Bearer ${token}`, ...(multipart ? {} : { 'content-type': 'application/json' }) },
            body:
              body === undefined
                ? undefined
                : multipart || typeof body === 'string'
                  ? (body as BodyInit)
                  : JSON.stringify(body),
          }),
        )
        const text = await response.text()
        if (!response.ok) throw new Error(`seed: ${method} ${pathname} answered ${response.status}: ${text}`)
        return text && (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text
      }
      await state.data.seed({ orgId, rows: resolved.seedRows, call })
    }
    store.put('meta', 'seeded', { at: new Date().toISOString(), rows: resolved.seedRows })
  }
  state.log({
    level: 'info',
    service: 'turbine-api',
    component: 'startup',
    message: `cluster ${resolved.version} started`,
  })

  handler.close = async () => {
    await state.data.close()
    store.close()
  }
  handler.orgId = orgId
  handler.admin = admin
  handler.state = state
  return handler
}

function resolveOptions(options: ClusterOptions): ResolvedOptions {
  const version = options.version ?? DEFAULT_VERSION
  const seedRows = options.seed === false ? 0 : typeof options.seed === 'object' ? options.seed.rows : 1_000_000
  return {
    dataDir: path.resolve(options.dataDir),
    version,
    faults: options.faults ?? false,
    tokenTtlSeconds: options.tokenTtlSeconds ?? 86_400,
    batchSourceWaitMs: options.batchSourceWaitMs ?? 30_000,
    importDir: path.resolve(options.importDir ?? path.join(options.dataDir, 'imports')),
    resetTokenTtlSeconds: options.resetTokenTtlSeconds ?? 3_600,
    inviteTokenTtlSeconds: options.inviteTokenTtlSeconds ?? 172_800,
    adminEmail: options.adminEmail,
    adminPassword: options.adminPassword,
    seedRows,
    bareArrays: isVersionBefore(version, 5, 4),
  }
}

function loadSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret.key')
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim()
  const secret = crypto.randomBytes(32).toString('base64url')
  fs.writeFileSync(file, secret, { mode: 0o600 })
  return secret
}

/** Paths older clients use for an endpoint that has moved: hdxcli before 1.0 invites through `/config/v1/invite/`. */
function aliasOf(pathname: string): string {
  if (/^\/config\/v1\/invite\/?$/.test(pathname)) return '/config/v1/invites/'
  return pathname
}

function serviceOf(pathname: string): string {
  if (pathname.startsWith('/query') || pathname === '/' || pathname === '/ping') return 'query-head'
  if (pathname.startsWith('/ingest') || pathname.startsWith('/pool/')) return 'intake-head'
  if (pathname.startsWith('/validator')) return 'intake-head'
  if (pathname.startsWith('/prometheus')) return 'prometheus'
  return 'turbine-api'
}

/** The opt-in fault switch: POST a fault, DELETE to clear them all. Refused unless enabled. */
async function handleFaults(request: ClusterRequest, faults: Fault[], enabled: boolean): Promise<Response> {
  if (!enabled) throw new HttpError(404, { detail: 'Not found.' })
  if (request.method === 'DELETE') {
    faults.length = 0
    return new Response(null, { status: 204 })
  }
  if (request.method === 'GET') return json(faults)
  if (request.method !== 'POST') throw new HttpError(405, { detail: `Method "${request.method}" not allowed.` })
  const body = await readJsonObject(request)
  if (typeof body.path !== 'string') throw new HttpError(400, { path: ['This field is required.'] })
  try {
    new RegExp(body.path)
  } catch (error) {
    throw new HttpError(400, { path: [`Not a valid regular expression: ${(error as Error).message}`] })
  }
  const fault: Fault = {
    path: body.path,
    method: typeof body.method === 'string' ? body.method.toUpperCase() : undefined,
    status: typeof body.status === 'number' ? body.status : undefined,
    body: body.body,
    raw: body.raw === true,
    hangMs: typeof body.hang_ms === 'number' ? body.hang_ms : undefined,
    drop: body.drop === true,
    times: typeof body.times === 'number' ? body.times : undefined,
  }
  faults.push(fault)
  // what the console kept is not shown again: it asks, and meets the fault (decision 113)
  renewStamps()
  return json(fault, 201)
}
