/**
 * Issue 50 point 5, pools: two people open the same pool; the first saves a change to a field. The
 * second's save of another value of the same field is refused (409) with the field named, its
 * value now and who changed it, the typed value kept; a save of a different field merges. Forms
 * are rendered on the server and posted as a browser without scripts posts them (decision 097).
 */
import { ChakraProvider } from '@chakra-ui/react'
import { renderToString } from 'react-dom/server'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { TEST_CONSOLE_URL } from '#tests/env'
import { formEntries } from '#tests/form-entries'
import { useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin, returnedOrThrown } from '#tests/session'
import { system } from '~/theme'
import { PoolEditEditor } from './__pool-editor'
import { action, loader } from './pool.$poolId'

vi.mock('@remix-run/react', async (importOriginal) =>
  (await import('#tests/remix-plain')).plainRemixReact(importOriginal),
)

useTestCluster()

let cookie: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
})

type Stored = Record<string, unknown> & { uuid: string; description?: string; settings: { k8s_deployment: Json } }
type Json = Record<string, unknown>
type Answer = { status: number; data?: { result?: { error?: Record<string, string[]>; initialValue?: Json } } }
const POOLS = '/config/v1/pools/'

/** The edit form as a browser without scripts would post it, rendered from the page (or a refused answer). */
async function openForm(poolId: string, lastResult?: unknown): Promise<[string, string][]> {
  const page = await loader(args(get(`/scale/pool/${poolId}`, cookie), { poolId }))
  const html = renderToString(
    <ChakraProvider value={system}>
      <PoolEditEditor
        defaultValue={page.editValues}
        defaults={page.defaults}
        constraint={page.constraint}
        lastResult={lastResult as never}
        cancelTo="/scale"
      />
    </ChakraProvider>,
  )
  return formEntries(html, 'pool-edit', null)
}

const withField = (entries: [string, string][], name: string, value: string): [string, string][] => [
  ...entries.filter(([key]) => key !== name),
  [name, value],
]

async function post(poolId: string, entries: [string, string][]): Promise<Answer> {
  const body = new FormData()
  for (const [name, value] of entries) body.append(name, value)
  const request = new Request(`${TEST_CONSOLE_URL}/scale/pool/${poolId}`, {
    method: 'POST',
    body,
    headers: { Cookie: cookie },
  })
  const result = await returnedOrThrown(() => action(args(request, { poolId })))
  if (result instanceof Response) return { status: result.status }
  const wrapped = result as { data: Answer['data']; init?: { status?: number } }
  return { status: wrapped.init?.status ?? 200, data: wrapped.data }
}

let made = 0
async function makePool(): Promise<Stored> {
  made += 1
  return clusterCall<Stored>('POST', POOLS, {
    name: `lu-pool-${made}`,
    description: 'as made',
    type: 'ingest',
    settings: { k8s_deployment: { service: 'stream-peer', replicas: 2, cpu: 1, memory: '2Gi', storage: '4Gi' } },
  })
}

describe('pool editor: no silent lost update (issue 50)', () => {
  it('refuses a second change of the same field, naming it and its value now, and keeps what was typed', async () => {
    const pool = await makePool()
    const first = await openForm(pool.uuid)
    const second = await openForm(pool.uuid)
    expect((await post(pool.uuid, withField(first, 'cpu', '3'))).status).toBe(302)

    const refused = await post(pool.uuid, withField(second, 'cpu', '5'))
    expect(refused.status).toBe(409)
    const errors = refused.data!.result!.error!
    expect(errors.cpu![0]).toMatch(
      /Changed by admin@example\.com at \d{4}-\d\d-\d\d [\d:]+ UTC since you opened this form: now “3”/,
    )
    expect(errors['']![0]).toContain('CPU is now “3”')
    expect(refused.data!.result!.initialValue!.cpu).toBe('5')
    const stored = await clusterCall<Stored>('GET', `${POOLS}${pool.uuid}`)
    expect(stored.settings.k8s_deployment.cpu).toBe('3')

    // the refused form, shown again with the value typed, saved again: the operator has seen the 3
    const again = await openForm(pool.uuid, refused.data!.result)
    expect(again).toContainEqual(['cpu', '5'])
    expect((await post(pool.uuid, again)).status).toBe(302)
    expect((await clusterCall<Stored>('GET', `${POOLS}${pool.uuid}`)).settings.k8s_deployment.cpu).toBe('5')
  })

  it('merges changes of different fields', async () => {
    const pool = await makePool()
    const first = await openForm(pool.uuid)
    const second = await openForm(pool.uuid)
    expect((await post(pool.uuid, withField(first, 'cpu', '3'))).status).toBe(302)
    expect((await post(pool.uuid, withField(second, 'description', 'second says'))).status).toBe(302)
    const stored = await clusterCall<Stored>('GET', `${POOLS}${pool.uuid}`)
    expect(stored.settings.k8s_deployment.cpu).toBe('3')
    expect(stored.description).toBe('second says')
  })

  it('takes the same change made twice (nothing would be lost)', async () => {
    const pool = await makePool()
    const first = await openForm(pool.uuid)
    const second = await openForm(pool.uuid)
    expect((await post(pool.uuid, withField(first, 'memory', '8Gi'))).status).toBe(302)
    expect((await post(pool.uuid, withField(second, 'memory', '8Gi'))).status).toBe(302)
  })

  it('refuses min replicas changed where max was changed meanwhile (one value on the cluster)', async () => {
    const pool = await makePool()
    const first = await openForm(pool.uuid)
    const second = await openForm(pool.uuid)
    const range = (entries: [string, string][], min: string, max: string) =>
      withField(
        withField(
          entries.filter(([key]) => key !== 'replicas'),
          'minReplicas',
          min,
        ),
        'maxReplicas',
        max,
      )
    expect((await post(pool.uuid, range(first, '2', '6'))).status).toBe(302)
    const refused = await post(pool.uuid, range(second, '1', '4'))
    expect(refused.status).toBe(409)
  })
})
