import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page, TestInfo } from '@playwright/test'
import { createTableThroughForm, expect, hydrated, logIn, test, uniqueName } from './fixtures'
import { holdingFaultLock, setFault } from './cluster-faults'
import { E2E_BASE_URL, E2E_PORT } from './env'
import { typeSql } from './query-editor'
import { startSecondConsole } from './second-console'

/*
 * Two consoles behind a round-robin proxy (issue 37), in both projects: the e2e console and a second
 * one on the same local cluster with the same SESSION_SECRET. The browser talks to the proxy only.
 * Where a step must land on a given replica, the proxy is told where the next matching request
 * goes (`pin`); every other request alternates.
 */

type Sent = { method: string; path: string; upstream: number }

/** A round-robin HTTP proxy in front of `upstreams` (node:http, nothing else). */
async function roundRobin(upstreams: string[]) {
  let turn = 0
  const log: Sent[] = []
  let rules: { method?: string; path: RegExp; upstream: number; once: boolean }[] = []
  const server: Server = createServer((incoming, outgoing) => {
    const method = incoming.method ?? 'GET'
    const path = incoming.url ?? '/'
    const rule = rules.find((r) => (!r.method || r.method === method) && r.path.test(path))
    if (rule?.once) rules = rules.filter((r) => r !== rule)
    const upstream = rule ? rule.upstream : turn++ % upstreams.length
    log.push({ method, path, upstream })
    const target = new URL(upstreams[upstream]!)
    const forwarded = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method,
        path,
        // the Host the browser used: the consoles check a write's Origin against it
        headers: incoming.headers,
        // a connection of its own for each request: a kept-alive one the console closed when its
        // keep-alive time ran out (5 s idle) failed the next request sent on it (ECONNRESET → 502), as a
        // real balancer retries and this proxy does not
        agent: false,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(outgoing)
      },
    )
    forwarded.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502)
      outgoing.end()
    })
    incoming.pipe(forwarded)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    /** The next request (`once`) or every request matching `path` (and `method`) goes to `upstream`. */
    pin(path: RegExp, upstream: number, options: { method?: string; once?: boolean } = {}) {
      rules.push({ path, upstream, method: options.method, once: options.once ?? true })
    },
    unpin() {
      rules = []
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

let second: Awaited<ReturnType<typeof startSecondConsole>> | undefined
let proxy: Awaited<ReturnType<typeof roundRobin>> | undefined
const replicas = () => [E2E_BASE_URL, second!.url]

test.describe('two consoles behind a round-robin proxy (issue 37)', () => {
  // two runs and four page loads with scripts through a proxy: 30 s ran out on a busy machine
  test.setTimeout(90_000)

  test.beforeAll(async ({}, testInfo) => {
    // one port per project and worker: never two second consoles on one port (with --repeat-each,
    // two workers ran this block at once, and the one whose console found its port taken was served
    // by the other's, until that one stopped)
    const port = E2E_PORT + 10 + 2 * testInfo.parallelIndex + (testInfo.project.name === 'js' ? 0 : 1)
    second = await startSecondConsole(['npx', 'tsx', 'server/index.ts'], port, {}, '/healthz')
    proxy = await roundRobin(replicas())
  })

  test.afterAll(async () => {
    await proxy?.close()
    await second?.stop()
  })

  test.afterEach(() => proxy?.unpin())

  /** A page signed in with the worker's session, whose base URL is the proxy. */
  async function throughProxy(browser: Browser, testInfo: TestInfo, sessionState?: object): Promise<Page> {
    const context = await browser.newContext({
      baseURL: proxy!.url,
      javaScriptEnabled: testInfo.project.use.javaScriptEnabled !== false,
      ...(sessionState ? { storageState: sessionState as never } : {}),
    })
    return context.newPage()
  }

  const lastWrite = (path: RegExp) =>
    [...proxy!.log].reverse().find((sent) => sent.method === 'POST' && path.test(sent.path))!

  test("a table's setting changed through one replica is read through the other at once", async ({
    browser,
    sessionState,
  }, testInfo) => {
    const page = await throughProxy(browser, testInfo, sessionState)
    const { url } = await createTableThroughForm(page)
    for (const [days, label] of [
      ['30', 'first'],
      ['45', 'second'],
    ] as const) {
      await page.getByRole('link', { name: 'Edit Data lifecycle' }).click()
      await page.getByLabel('Max age (days)').fill(days)
      await page.getByRole('button', { name: 'Save data lifecycle' }).click()
      await expect(page.getByText('Data lifecycle saved')).toBeVisible()
      const wrote = lastWrite(/^\/data\/tables\//).upstream
      // the page, read through the replica that did not save it
      proxy!.pin(/^\/data\/tables\/[^/?]+(\?|$)/, 1 - wrote, { method: 'GET' })
      await page.goto(url)
      await hydrated(page)
      const read = [...proxy!.log]
        .reverse()
        .find((sent) => sent.method === 'GET' && sent.path.startsWith('/data/tables/'))!
      expect(read.upstream, `${label}: read through the other replica`).toBe(1 - wrote)
      await expect(page.getByRole('region', { name: 'Data lifecycle' }).getByText(days, { exact: true })).toBeVisible()
    }
    await page.context().close()
  })

  test('a Run, its result page and its streamed grid (or its next page) split across both replicas', async ({
    browser,
    sessionState,
  }, testInfo) => {
    const page = await throughProxy(browser, testInfo, sessionState)
    const sql = `SELECT number AS n, '${uniqueName('split')}' AS tag FROM numbers(2000)`
    await page.goto('/queries')
    await hydrated(page)
    await typeSql(page, testInfo, sql)
    // the Run on replica 0; the result page on 1; its streamed rows (with scripts) or next page on 0
    proxy!.pin(/^\/result/, 0, { method: 'POST' })
    proxy!.pin(/^\/resources\/query-rows/, 0, { method: 'GET', once: false })
    proxy!.pin(/^\/result.*run=/, 1, { method: 'GET', once: false })
    await page.getByRole('button', { name: 'Run' }).click()
    const table = page.getByRole('table', { name: 'Query results' })
    await expect(page.getByRole('status').filter({ hasText: /^2,000 rows/ })).toBeVisible()
    await expect(table.getByRole('row', { name: /^1 0 / })).toBeVisible()
    if (testInfo.project.name === 'js') {
      const grid = page.getByTestId('result-grid')
      await grid.evaluate((element) => element.scrollTo(0, element.scrollHeight))
      await expect(table.getByRole('row', { name: /^2000 1999 / })).toBeVisible()
      expect(proxy!.log.some((sent) => sent.path.startsWith('/resources/query-rows') && sent.upstream === 0)).toBe(true)
    } else {
      proxy!.unpin()
      proxy!.pin(/^\/result.*run=/, 0, { method: 'GET' })
      const pages = page.getByRole('navigation', { name: 'Result pages' })
      await pages.getByRole('link', { name: 'Page 4' }).click()
      await expect(pages).toContainText('Rows 1,501–2,000 of 2,000')
      await expect(table.getByRole('row', { name: /^2000 1999 / })).toBeVisible()
    }
    const runs = proxy!.log.filter(
      (sent) => /run=/.test(sent.path) || (sent.method === 'POST' && sent.path.startsWith('/result')),
    )
    expect(new Set(runs.map((sent) => sent.upstream))).toEqual(new Set([0, 1]))
    await page.context().close()
  })

  test('History lists the runs made through both replicas, read through either', async ({
    browser,
    sessionState,
  }, testInfo) => {
    const page = await throughProxy(browser, testInfo, sessionState)
    await turnOnHistory(page)
    const markers = [uniqueName('via_a'), uniqueName('via_b')]
    for (const [upstream, marker] of markers.entries()) {
      await page.goto('/queries')
      await hydrated(page)
      await typeSql(page, testInfo, `SELECT '${marker}' AS marker`)
      proxy!.pin(/^\/result/, upstream, { method: 'POST' })
      await page.getByRole('button', { name: 'Run' }).click()
      await expect(page.getByRole('table', { name: 'Query results' }).getByRole('cell', { name: marker })).toBeVisible()
      expect(lastWrite(/^\/result/).upstream).toBe(upstream)
    }
    for (const upstream of [0, 1]) {
      proxy!.pin(/^\/queries(\?|$)/, upstream, { method: 'GET' })
      // A replica shows its own runs at once; another's within HISTORY_WRITE_MS (1 s), when that
      // replica writes them (decision 053: a user's runs are written at most once a second). The run
      // through replica 0 may wait for the write of an earlier run, so a page opened right after it
      // on replica 1 may not list it yet: the page is opened again until it does, within 5 s.
      await expect(async () => {
        await page.goto('/queries')
        await hydrated(page)
        await page.getByText(/^History \(\d+\)$/).click()
        const history = page.getByRole('list', { name: 'Query history' })
        for (const marker of markers)
          await expect(history.getByRole('link', { name: new RegExp(marker) })).toBeVisible({ timeout: 1000 })
      }).toPass({ timeout: 5000 })
    }
    await page.context().close()
  })

  test('Log out through one replica: a cookie copied before it is refused by both', async ({ browser }, testInfo) => {
    await expectLogoutEverywhere(browser, testInfo, 'the cluster revokes the token')
  })

  test('Log out through one replica on a cluster without a revoke call: both refuse a copied cookie (decision 080)', async ({
    browser,
    sessionState,
  }, testInfo) => {
    // the shared revocations live in the console's store: an operator has turned History on
    const setUp = await throughProxy(browser, testInfo, sessionState)
    await turnOnHistory(setUp)
    await setUp.context().close()
    await holdingFaultLock(async () => {
      await setFault({ path: '^/config/v1/logout', status: 404 })
      const lag = await expectLogoutEverywhere(browser, testInfo, 'the store shares the revocation')
      testInfo.annotations.push({ type: 'revocation lag', description: `${lag} ms` })
    })
  })

  /**
   * Logs in through the proxy, has both replicas serve the session (so each has read the shared
   * revocations), logs out through replica 0, then sends the copied cookie to each replica directly.
   * Returns how long after Log out the other replica first refused it.
   */
  async function expectLogoutEverywhere(browser: Browser, testInfo: TestInfo, why: string): Promise<number> {
    const page = await throughProxy(browser, testInfo)
    await page.goto('/login')
    await logIn(page)
    await page.waitForURL('**/dashboard')
    const session = (await page.context().cookies()).find((cookie) => cookie.name === 'cc_session')!
    const copied = `cc_session=${session.value}`
    const opens = async (replica: string) =>
      (await fetch(`${replica}/dashboard`, { headers: { Cookie: copied }, redirect: 'manual' })).status
    for (const replica of replicas()) expect(await opens(replica)).toBe(200)

    await hydrated(page)
    await page.getByRole('banner').getByRole('button', { name: /@/ }).click()
    proxy!.pin(/^\/logout/, 0, { method: 'POST' })
    await page.getByRole('button', { name: 'Log out' }).click()
    await expect(page).toHaveURL(/\/login$/)
    const loggedOutAt = Date.now()
    expect(lastWrite(/^\/logout/).upstream).toBe(0)
    expect(await opens(replicas()[0]!), `${why}: the replica that logged out`).toBe(302)
    await expect
      .poll(() => opens(replicas()[1]!), { message: `${why}: the other replica`, timeout: 10_000, intervals: [200] })
      .toBe(302)
    const lag = Date.now() - loggedOutAt
    await page.context().close()
    return lag
  }
})

/** Turns the query history on in Settings (creating the console's store) when it is off. */
async function turnOnHistory(page: Page) {
  await page.goto('/profile/settings')
  const turnOn = page.getByRole('button', { name: 'Turn on query history' })
  if (await turnOn.count()) {
    await hydrated(page)
    await turnOn.click()
    await expect(page.getByText(/^On\. Runs and saved queries are kept/)).toBeVisible()
  }
}
