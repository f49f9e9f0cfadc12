/**
 * Issue 50 point 5, functions (decision 097): the SQL saved by one operator meanwhile is not
 * overwritten by another's stale form; a change of another field merges.
 */
import { ChakraProvider } from '@chakra-ui/react'
import { renderToString } from 'react-dom/server'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { TEST_CONSOLE_URL } from '#tests/env'
import { formEntries } from '#tests/form-entries'
import { answerOf, formPost, withField, type FormResult } from '#tests/lost-update'
import { useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin } from '#tests/session'
import { system } from '~/theme'
import { FunctionEditor } from './__function-editor'
import { action, loader } from './functions.$projectId.$functionId.edit-function'

vi.mock('@remix-run/react', async (importOriginal) =>
  (await import('#tests/remix-plain')).plainRemixReact(importOriginal),
)

useTestCluster()

let cookie: string
let projectId: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
  projectId = (await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: 'lu_funcs' }))
    .uuid
})

type Stored = Record<string, unknown> & { uuid: string; sql: string; description?: string }
const path = (id = '') => `/config/v1/orgs/{org}/projects/${projectId}/functions/${id ? `${id}/` : ''}`
const url = (functionId: string) => `/data/functions/${projectId}/${functionId}/edit-function`

async function openForm(functionId: string, lastResult?: FormResult) {
  const page = await loader(args(get(url(functionId), cookie), { projectId, functionId }))
  const html = renderToString(
    <ChakraProvider value={system}>
      <FunctionEditor
        projects={[page.project]}
        constraint={page.constraint}
        fixedProject={page.project}
        defaultValue={page.values}
        lastResult={lastResult as never}
        submitLabel="Save function"
        cancelTo="/data/functions"
      />
    </ChakraProvider>,
  )
  return formEntries(html, 'function-editor')
}
const post = (functionId: string, entries: [string, string][]) =>
  answerOf(() => action(args(formPost(url(functionId), entries, cookie, TEST_CONSOLE_URL), { projectId, functionId })))

let made = 0
const makeFunction = () =>
  clusterCall<Stored>('POST', path(), { name: `lu_fn_${++made}`, sql: 'x -> x + 1', description: 'as made' })

describe('function editor: no silent lost update (issue 50)', () => {
  it('refuses the SQL changed meanwhile, with its value now; saved again it replaces it', async () => {
    const fn = await makeFunction()
    const [first, second] = [await openForm(fn.uuid), await openForm(fn.uuid)]
    expect((await post(fn.uuid, withField(first, 'sql', 'x -> x + 2'))).status).toBe(302)
    const refused = await post(fn.uuid, withField(second, 'sql', 'x -> x * 3'))
    expect(refused.status).toBe(409)
    expect(refused.result!.error!.sql![0]).toMatch(/^Changed by admin@example\.com .* now “x -> x \+ 2”/)
    expect(refused.result!.initialValue!.sql).toBe('x -> x * 3')
    expect((await clusterCall<Stored>('GET', path(fn.uuid))).sql).toBe('x -> x + 2')
    expect((await post(fn.uuid, await openForm(fn.uuid, refused.result))).status).toBe(302)
    expect((await clusterCall<Stored>('GET', path(fn.uuid))).sql).toBe('x -> x * 3')
  })

  it('merges a change of the description', async () => {
    const fn = await makeFunction()
    const [first, second] = [await openForm(fn.uuid), await openForm(fn.uuid)]
    expect((await post(fn.uuid, withField(first, 'sql', 'x -> x + 2'))).status).toBe(302)
    expect((await post(fn.uuid, withField(second, 'description', 'second says'))).status).toBe(302)
    const after = await clusterCall<Stored>('GET', path(fn.uuid))
    expect([after.sql, after.description]).toEqual(['x -> x + 2', 'second says'])
  })
})
