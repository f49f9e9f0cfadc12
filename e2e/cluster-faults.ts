import { mkdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { expect } from '@playwright/test'
import { ADMIN_EMAIL, ADMIN_PASSWORD, E2E_CLUSTER_PORT, E2E_PORT } from './env'

/** The e2e console's local cluster, for setting things up and for its fault switch (cluster/README.md). */
export const CLUSTER = `http://127.0.0.1:${E2E_CLUSTER_PORT}`

// The fault switch is the whole cluster's: the same lock directory as error-catalogue.spec.ts, so
// the js and no-js workers (and that spec) take turns.
const LOCK = path.join(tmpdir(), `console-e2e-faults-${E2E_PORT}.lock`)

/** Runs `run` holding the fault switch; every fault is cleared when it ends. */
export async function holdingFaultLock<T>(run: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      mkdirSync(LOCK)
      break
    } catch {
      if (i > 600) rmSync(LOCK, { recursive: true, force: true }) // a crashed holder, after 60 s
      await sleep(100)
    }
  }
  try {
    return await run()
  } finally {
    await clearFaults()
    rmSync(LOCK, { recursive: true, force: true })
  }
}

/** Adds a fault (`{path, method?, status?, body?, times?, …}`); only inside holdingFaultLock. */
export async function setFault(fault: Record<string, unknown>) {
  const answer = await fetch(`${CLUSTER}/__faults`, { method: 'POST', body: JSON.stringify(fault) })
  expect(answer.status, 'the e2e cluster runs with CLUSTER_FAULTS=1').toBe(201)
}

export async function clearFaults() {
  await fetch(`${CLUSTER}/__faults`, { method: 'DELETE' })
}

let login: { token: string; orgId: string } | undefined

/** The admin's cluster token (logged in once per worker). */
export async function clusterToken(): Promise<string> {
  if (!login) {
    const answer = await fetch(`${CLUSTER}/config/v1/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    })
    const body = (await answer.json()) as { auth_token: { access_token: string }; orgs: { uuid: string }[] }
    login = { token: body.auth_token.access_token, orgId: body.orgs[0]!.uuid }
  }
  return login.token
}

/**
 * Calls the cluster as the admin (`{org}` becomes the admin's org; `body` sent as JSON, or as
 * multipart when it is FormData; `headers` added, e.g. `x-hdx-table` for /ingest/event); returns the
 * parsed JSON body, throws on a failure.
 */
export async function clusterCall<T>(
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const token = await clusterToken()
  const isForm = body instanceof FormData
  const answer = await fetch(`${CLUSTER}${url.replace('{org}', login!.orgId)}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined || isForm ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
  })
  if (!answer.ok) throw new Error(`${method} ${url}: ${answer.status} ${await answer.text()}`)
  const text = await answer.text()
  return (text ? JSON.parse(text) : undefined) as T
}
