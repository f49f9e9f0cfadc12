import type { Page } from '@playwright/test'
import { ADMIN_EMAIL, ADMIN_PASSWORD, E2E_CLUSTER_PORT } from './env'
import { expect, hydrated, test, uniqueName } from './fixtures'
import { builtRoutes, concretePath } from './routes'

/** A phone's width: no page may be wider than this (issue 36, item 5). */
const WIDTH = 390

type Listed = { uuid?: string; id?: number | string; name?: string; email?: string }

/**
 * Ids of real resources for the routes' parameters, read from the local cluster over HTTP (as
 * global-setup.ts does): the seed's sample project, table, transform, dictionary and function, a
 * pool, a bucket, a role, the admin; and a batch job made here, so its page shows a real job.
 */
async function realIds(): Promise<{ ids: Record<string, string>; batchJobId: string }> {
  const base = `http://127.0.0.1:${E2E_CLUSTER_PORT}/config/v1`
  const login = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  })
  const session = (await login.json()) as { auth_token: { access_token: string }; orgs: { uuid: string }[] }
  const headers = { Authorization: `Bearer ${session.auth_token.access_token}`, 'Content-Type': 'application/json' }
  const org = session.orgs[0]!.uuid
  const list = async (path: string): Promise<Listed[]> => {
    const body = (await (await fetch(`${base}${path}`, { headers })).json()) as Listed[] | { results?: Listed[] }
    return Array.isArray(body) ? body : (body.results ?? [])
  }
  const idOf = (item: Listed | undefined) => String(item?.uuid ?? item?.id ?? '')
  const project = (await list(`/orgs/${org}/projects/`)).find((p) => p.name === 'sample')!
  const projectPath = `/orgs/${org}/projects/${project.uuid}`
  const table = (await list(`${projectPath}/tables/`)).find((t) => t.name === 'web_logs')!
  const transform = (await list(`${projectPath}/tables/${table.uuid}/transforms/`))[0]
  const job = await fetch(`${base}/orgs/${org}/jobs/batch/`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      name: uniqueName('narrow_batch'),
      description: 'A batch job whose page is measured at 390 px',
      type: 'batch_import',
      settings: {
        dry_run: true,
        source: {
          table: 'sample.web_logs',
          type: 'batch',
          subtype: 'aws s3',
          transform: transform?.name,
          settings: { url: 's3://sample-bucket/web-logs/' },
        },
      },
    }),
  })
  if (!job.ok) throw new Error(`creating a batch job answered ${job.status}: ${await job.text()}`)
  const users = await list('/users/')
  return {
    batchJobId: idOf((await job.json()) as Listed),
    ids: {
      projectId: String(project.uuid),
      tableId: String(table.uuid),
      transformId: idOf(transform),
      dictionaryId: idOf((await list(`${projectPath}/dictionaries/`))[0]),
      functionId: idOf((await list(`${projectPath}/functions/`))[0]),
      poolId: idOf((await list('/pools/'))[0]),
      bucketId: idOf((await list(`/orgs/${org}/storages/`))[0]),
      roleId: idOf((await list('/roles/'))[0]),
      userId: idOf(users.find((u) => u.email === ADMIN_EMAIL) ?? users[0]),
    },
  }
}

/** The page's width beyond the screen, and the outermost elements that stick out (to say what to fix). */
async function overflow(page: Page) {
  return page.evaluate((width) => {
    const scrollWidth = document.documentElement.scrollWidth
    if (scrollWidth <= width) return { scrollWidth, culprits: [] as string[] }
    const culprits: string[] = []
    for (const element of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
      const rect = element.getBoundingClientRect()
      if (rect.right <= width + 0.5 || rect.width === 0) continue
      // the outermost: its parent fits
      const parent = element.parentElement!.getBoundingClientRect()
      if (parent.right > width + 0.5 && element.parentElement !== document.body) continue
      const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${
        element.getAttribute('aria-label') ? `[${element.getAttribute('aria-label')}]` : ''
      }`
      culprits.push(`${name} right ${Math.round(rect.right)}: ${(element.textContent ?? '').trim().slice(0, 50)}`)
      if (culprits.length >= 3) break
    }
    return { scrollWidth, culprits }
  }, WIDTH)
}

test.describe('a phone-sized screen', () => {
  test.setTimeout(4 * 60_000)

  test(`no page is wider than ${WIDTH} px: a wide table scrolls in its own box`, async ({ authedPage: page }) => {
    await page.setViewportSize({ width: WIDTH, height: 844 })
    const { ids, batchJobId } = await realIds()
    const urls = (await builtRoutes())
      .filter((route) => route.isPage)
      .map((route) => concretePath(route.path, ids))
      .concat([
        `/data/tables?manage-project=${ids.projectId}`,
        `/data/tables?manage-project=new`,
        `/jobs/batch-jobs?job=${batchJobId}`,
        `/jobs/batch-jobs/create?table_q=sample.web_logs`,
      ])
    expect(urls.length).toBeGreaterThan(50)
    const failures: string[] = []
    for (const url of urls) {
      await page.goto(url)
      await page.waitForLoadState('load')
      await hydrated(page)
      const { scrollWidth, culprits } = await overflow(page)
      if (scrollWidth > WIDTH) failures.push(`${url}: ${scrollWidth - WIDTH} px too wide — ${culprits.join(' | ')}`)
    }
    expect(failures, failures.join('\n')).toEqual([])
  })
})
