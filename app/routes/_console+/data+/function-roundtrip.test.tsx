/**
 * Issue 32, functions: a function made by another tool (its SQL with spaces and line breaks around
 * and inside it, quoted as a shell-less client passes it or ended with `;`; a null, "", absent or
 * multi-line description), opened in its edit page and saved unchanged, stays exactly as the cluster
 * holds it (its SQL byte for byte); a change writes only its own place. Functions are generated,
 * created on the local cluster, loaded by the edit loader, rendered on the server and posted as a
 * browser without scripts posts the form (decisions 072 and 073).
 */
import { ChakraProvider } from '@chakra-ui/react'
import fc from 'fast-check'
import { renderToString } from 'react-dom/server'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { TEST_CONSOLE_URL } from '#tests/env'
import { formEntries } from '#tests/form-entries'
import { useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin, returnedOrThrown } from '#tests/session'
import { system } from '~/theme'
import { FunctionEditor } from './__function-editor'
import { action, loader } from './functions.$projectId.$functionId.edit-function'

// The editor outside a Remix app: its router parts as the plain elements they render.
vi.mock('@remix-run/react', async (importOriginal) =>
  (await import('#tests/remix-plain')).plainRemixReact(importOriginal),
)

useTestCluster()

let cookie: string
let projectId: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
  projectId = (await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: 'rt_funcs' }))
    .uuid
})

type Stored = Record<string, unknown> & { uuid: string }
const strip = ({ modified: _m, ...rest }: Stored) => rest
const functionsPath = () => `/config/v1/orgs/{org}/projects/${projectId}/functions/`

/** Opens the function's edit page, renders its form, posts it with `change` applied; returns the action's result. */
async function save(functionId: string, change = (e: [string, string][]) => e) {
  const params = { projectId, functionId }
  const url = `/data/functions/${projectId}/${functionId}/edit-function`
  const page = await loader(args(get(url, cookie), params))
  const html = renderToString(
    <ChakraProvider value={system}>
      <FunctionEditor
        projects={[page.project]}
        constraint={page.constraint}
        fixedProject={page.project}
        defaultValue={page.values}
        submitLabel="Save function"
        cancelTo="/data/functions"
      />
    </ChakraProvider>,
  )
  const body = new FormData()
  for (const [name, value] of change(formEntries(html, 'function-editor'))) body.append(name, value)
  const request = new Request(`${TEST_CONSOLE_URL}${url}`, { method: 'POST', body, headers: { Cookie: cookie } })
  const result = await returnedOrThrown(() => action(args(request, params)))
  return result instanceof Response ? result.status : JSON.stringify((result as { data?: unknown }).data ?? result)
}

// ---------------------------------------------------------------------------------------------
// Functions as other tools store them

const text = fc.string({ unit: fc.constantFrom('a', 'Z', '0', '-', ' ', '"', '<', '&', 'é', '\n'), maxLength: 8 })
const maybe = <T,>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined })
const space = fc.string({ unit: fc.constantFrom(' ', '\n', '\t', '\r\n'), maxLength: 3 })

const LAMBDAS = ['(x, k, b) -> k*x + b', 'x -> x + 1', '(a,b)->a*b', "(s) ->\n  concat(s, '!')", '() -> 42']
const sqlArb = fc
  .record({
    lambda: fc.constantFrom(...LAMBDAS),
    quoted: fc.boolean(),
    semicolon: fc.boolean(),
    before: space,
    after: space,
  })
  .map(({ lambda, quoted, semicolon, before, after }) => {
    // a quoted expression (a shell-less client's) is one line with no quote inside
    const body = quoted && !lambda.includes("'") ? `'${lambda.replace(/\s+/g, ' ')}'` : lambda
    return `${before}${body}${semicolon ? ';' : ''}${after}`
  })

const functionArb = fc.record({
  description: maybe(fc.oneof(fc.constant(null), fc.constant(''), text)),
  sql: sqlArb,
})

let made = 0
async function createFunction(fn: Record<string, unknown>) {
  made += 1
  const created = await clusterCall<Stored>('POST', functionsPath(), { ...fn, name: `rt_fn_${made}` })
  if (!created.uuid) throw new Error(`The cluster refused the function: ${JSON.stringify(created)}`)
  return clusterCall<Stored>('GET', `${functionsPath()}${created.uuid}`)
}

const RUNS = Number(process.env.ROUNDTRIP_RUNS ?? 30)
const SEED = Number(process.env.ROUNDTRIP_SEED ?? 32)

describe('function editor round trip (issue 32)', () => {
  it('keeps every generated function exactly as stored (its SQL byte for byte) when saved unchanged', async () => {
    let cases = 0
    await fc.assert(
      fc.asyncProperty(functionArb, async (fn) => {
        cases += 1
        const before = await createFunction(JSON.parse(JSON.stringify(fn)) as Record<string, unknown>)
        expect(await save(before.uuid)).toBe(302)
        expect(strip(await clusterCall<Stored>('GET', `${functionsPath()}${before.uuid}`))).toEqual(strip(before))
      }),
      { numRuns: RUNS, seed: SEED },
    )
    console.info(`function round trip: ${cases} generated functions saved unchanged`)
  })

  it('changing the description writes only the description', async () => {
    await fc.assert(
      fc.asyncProperty(functionArb, async (fn) => {
        const before = await createFunction(JSON.parse(JSON.stringify(fn)) as Record<string, unknown>)
        const status = await save(before.uuid, (entries) => [
          ...entries.filter(([key]) => key !== 'description'),
          ['description', 'Changed here'],
        ])
        expect(status).toBe(302)
        const after = await clusterCall<Stored>('GET', `${functionsPath()}${before.uuid}`)
        expect(strip(after)).toEqual({ ...strip(before), description: 'Changed here' })
      }),
      { numRuns: Math.max(3, Math.round(RUNS / 4)), seed: SEED },
    )
  })

  it('a changed SQL is written as typed, line breaks included', async () => {
    const before = await createFunction({ sql: 'x -> x + 1' })
    const typed = '(x, y) ->\n  x * y'
    const status = await save(before.uuid, (entries) => [
      ...entries.filter(([key]) => key !== 'sql'),
      ['sql', typed.replace(/\n/g, '\r\n')],
    ])
    expect(status).toBe(302)
    const after = await clusterCall<Stored>('GET', `${functionsPath()}${before.uuid}`)
    expect(strip(after)).toEqual({ ...strip(before), sql: typed })
  })
})
