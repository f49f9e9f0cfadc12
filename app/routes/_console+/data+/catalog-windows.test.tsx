/**
 * Issue 33 (decision 088): the Dictionaries, Functions and Files lists on an org of more projects
 * than CATALOG_PROJECTS_PER_PAGE. Without a filter they read one window of projects (in name order),
 * `?projects=N` the next ones; a search or a chosen project still finds what is in any project. As a
 * browser without scripts gets it: the window is named and "Next projects" is a plain link; a window
 * without rows says so and links on, instead of reading as an empty org.
 */
import { ChakraProvider } from '@chakra-ui/react'
import type { ComponentProps } from 'react'
import { renderToString } from 'react-dom/server'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { callPaths, useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin } from '#tests/session'
import { system } from '~/theme'
import { CATALOG_PROJECTS_PER_PAGE } from '~/utils/catalog-projects'
import FunctionsRoute, { loader as functionsLoader } from './functions._index'
import { loader as dictionariesLoader } from './dictionaries._index'
import { loader as filesLoader } from './files._index'

const page = vi.hoisted(() => ({ data: undefined as unknown, search: '' }))

vi.mock('@remix-run/react', async (importOriginal) => ({
  ...(await (await import('#tests/remix-plain')).plainRemixReact(importOriginal)),
  NavLink: ({ to, children }: ComponentProps<'a'> & { to: string; children: unknown }) => (
    <a href={to}>{typeof children === 'function' ? null : (children as string)}</a>
  ),
  useLoaderData: () => page.data,
  useRouteLoaderData: () => undefined,
  useSearchParams: () => [new URLSearchParams(page.search)],
  useSubmit: () => () => {},
}))

useTestCluster()

let cookie: string
const PROJECTS = 2 * CATALOG_PROJECTS_PER_PAGE + 3
const projects: { uuid: string; name: string }[] = []
const projectName = (index: number) => `win_${String(index).padStart(2, '0')}`

beforeAll(async () => {
  cookie = await loginAsAdmin()
  for (let index = 0; index < PROJECTS; index++) {
    const name = projectName(index)
    const project = await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name })
    projects.push({ uuid: project.uuid, name })
    // functions in the first window and in the last project; the second window has none
    if (index < CATALOG_PROJECTS_PER_PAGE || index === PROJECTS - 1)
      await clusterCall('POST', `/config/v1/orgs/{org}/projects/${project.uuid}/functions/`, {
        name: `wfn_${index}`,
        sql: `x -> x + ${index}`,
      })
  }
}, 120_000)

const listCalls = (kind: string, load: () => Promise<unknown>) =>
  callPaths(load, (path) => path.endsWith(`/${kind}/`) || path.endsWith(`/${kind}`))

type FunctionsData = Awaited<ReturnType<typeof functionsLoader>>

function render(data: FunctionsData, search: string) {
  page.data = data
  page.search = search
  return renderToString(
    <ChakraProvider value={system}>
      <FunctionsRoute />
    </ChakraProvider>,
  )
}

describe('a catalog list of a large org, a window of projects at a time (issue 33)', () => {
  it('functions: the first window reads its projects only, names them, and links to the next', async () => {
    let data: FunctionsData | undefined
    const calls = await listCalls('functions', async () => {
      data = await functionsLoader(args(get('/data/functions', cookie)))
    })
    expect(calls).toHaveLength(CATALOG_PROJECTS_PER_PAGE)
    for (const project of projects.slice(0, CATALOG_PROJECTS_PER_PAGE))
      expect(calls.some((path) => path.includes(`/projects/${project.uuid}/`))).toBe(true)
    expect(data!.rows.map((row) => row.name)).toEqual(
      Array.from({ length: CATALOG_PROJECTS_PER_PAGE }, (_, index) => `wfn_${index}`),
    )
    expect(data!.projectWindow).toEqual({
      index: 1,
      count: 3,
      from: 1,
      to: CATALOG_PROJECTS_PER_PAGE,
      total: PROJECTS,
      firstName: projectName(0),
      lastName: projectName(CATALOG_PROJECTS_PER_PAGE - 1),
    })
    // the filter still offers every project
    expect(data!.projects).toHaveLength(PROJECTS)

    const html = render(data!, '')
    expect(html).toContain(`projects 1–${CATALOG_PROJECTS_PER_PAGE} of ${PROJECTS}`)
    expect(html).toMatch(/<a href="\/data\/functions\?projects=2"[^>]*>Next projects<\/a>/)
    expect(html).not.toContain('Previous projects')
    expect(html).not.toContain('No custom functions yet')
  })

  it('functions: a window without functions says so and links on; the last window is read alone', async () => {
    let data: FunctionsData | undefined
    const calls = await listCalls('functions', async () => {
      data = await functionsLoader(args(get('/data/functions?projects=2&pageSize=50', cookie)))
    })
    expect(calls).toHaveLength(CATALOG_PROJECTS_PER_PAGE)
    expect(data!.rows).toEqual([])
    const html = render(data!, 'projects=2&pageSize=50')
    expect(html).toContain(
      `No functions in projects ${CATALOG_PROJECTS_PER_PAGE + 1}–${2 * CATALOG_PROJECTS_PER_PAGE} of ${PROJECTS}`,
    )
    expect(html).not.toContain('No custom functions yet')
    // the window links keep the page size
    expect(html).toMatch(/<a href="\/data\/functions\?pageSize=50&amp;projects=3"[^>]*>Next projects<\/a>/)
    expect(html).toMatch(/<a href="\/data\/functions\?pageSize=50"[^>]*>Previous projects<\/a>/)

    // past the end: the last window
    const last = await listCalls('functions', async () => {
      data = await functionsLoader(args(get('/data/functions?projects=99', cookie)))
    })
    expect(last).toHaveLength(3)
    expect(data!.projectWindow).toMatchObject({ index: 3, from: 2 * CATALOG_PROJECTS_PER_PAGE + 1, to: PROJECTS })
    expect(data!.rows.map((row) => row.name)).toEqual([`wfn_${PROJECTS - 1}`])
  })

  it('functions: a search, or the project chosen, finds a function outside the first window', async () => {
    const wanted = `wfn_${PROJECTS - 1}`
    let data: FunctionsData | undefined
    const searched = await listCalls('functions', async () => {
      data = await functionsLoader(args(get(`/data/functions?q=${wanted}`, cookie)))
    })
    expect(searched).toHaveLength(PROJECTS)
    expect(data!.projectWindow).toBeNull()
    expect(data!.rows.map((row) => row.name)).toEqual([wanted])

    const chosen = await listCalls('functions', async () => {
      data = await functionsLoader(args(get(`/data/functions?project=${projects[PROJECTS - 1]!.uuid}`, cookie)))
    })
    expect(chosen).toHaveLength(1)
    expect(data!.rows.map((row) => row.name)).toEqual([wanted])

    const nothing = await functionsLoader(args(get('/data/functions?q=no_such_function_anywhere', cookie)))
    expect(nothing.rows).toEqual([])
    expect(render(nothing, 'q=no_such_function_anywhere')).toContain('No functions match this filter.')
  })

  it('dictionaries and files: the first window reads its projects only', async () => {
    let dictionaries: Awaited<ReturnType<typeof dictionariesLoader>> | undefined
    expect(
      await listCalls('dictionaries', async () => {
        dictionaries = await dictionariesLoader(args(get('/data/dictionaries', cookie)))
      }),
    ).toHaveLength(CATALOG_PROJECTS_PER_PAGE)
    expect(dictionaries!.projectWindow).toMatchObject({ index: 1, total: PROJECTS })

    let files: Awaited<ReturnType<typeof filesLoader>> | undefined
    expect(
      await listCalls('files', async () => {
        files = await filesLoader(args(get('/data/files?projects=3', cookie)))
      }),
    ).toHaveLength(3)
    expect(files!.projectWindow).toMatchObject({ index: 3, to: PROJECTS })
  })
})
