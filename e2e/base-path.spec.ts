import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { expect, logIn, test, uniqueName } from './fixtures'
import { E2E_PORT } from './env'
import { startSecondConsole } from './second-console'

/**
 * Behind a reverse proxy at a sub-path (decision 023): a console built with BASE_PATH=/console
 * (into build-base-path/, made here when missing or older than build/) runs behind a small proxy
 * that forwards /console/* unchanged and answers 404 for everything else, as nginx would with
 * `location /console/ { proxy_pass http://console; }`. Links, assets, redirects, cookies and forms
 * must all stay under /console.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BUILD_DIR = 'build-base-path'
const BASE = '/console'

/** Builds the BASE_PATH console once, whichever project's worker gets here first. */
async function ensureBasePathBuild() {
  const built = path.join(ROOT, BUILD_DIR, 'server', 'index.js')
  const main = path.join(ROOT, 'build', 'server', 'index.js')
  const isFresh = () => existsSync(built) && (!existsSync(main) || statSync(built).mtimeMs >= statSync(main).mtimeMs)
  const lock = path.join(ROOT, `.${BUILD_DIR}.lock`)
  for (;;) {
    if (isFresh()) return
    try {
      mkdirSync(lock)
    } catch {
      await sleep(500) // the other project's worker is building it
      continue
    }
    try {
      if (isFresh()) return
      // Not spawnSync: the worker must stay responsive (its time-out, the other project's wait).
      const child = spawn('npx', ['remix', 'vite:build'], {
        cwd: ROOT,
        env: { ...process.env, BASE_PATH: BASE, BUILD_DIR },
        stdio: ['ignore', 'ignore', 'pipe'],
      })
      let stderr = ''
      child.stderr!.on('data', (chunk) => (stderr += String(chunk)))
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
      if (code !== 0) throw new Error(`BASE_PATH build failed:\n${stderr}`)
      return
    } finally {
      rmSync(lock, { recursive: true, force: true })
    }
  }
}

/** A proxy on `port` that forwards /console and /console/* to `target` as they came, with X-Forwarded-* set. */
function startProxy(port: number, target: number): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/'
    if (url !== BASE && !url.startsWith(`${BASE}/`) && !url.startsWith(`${BASE}?`)) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not the console: this proxy serves /console only')
      return
    }
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: target,
        method: req.method,
        path: url,
        headers: {
          ...req.headers,
          'x-forwarded-host': req.headers.host ?? '',
          'x-forwarded-proto': 'http',
          'x-forwarded-prefix': BASE,
        },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    upstream.on('error', () => res.headersSent || res.writeHead(502).end('Bad Gateway'))
    req.pipe(upstream)
  })
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)))
}

test.describe('behind a proxy at /console (BASE_PATH)', () => {
  // Ports per project: the js and no-js workers may run this at the same time.
  const portsOf = (project: string) => {
    const offset = project === 'js' ? 0 : 2
    return { proxy: E2E_PORT + 50 + offset, console: E2E_PORT + 51 + offset }
  }
  let second: Awaited<ReturnType<typeof startSecondConsole>> | undefined
  let proxy: http.Server | undefined
  let origin = ''

  test.beforeAll(async ({}, testInfo) => {
    // A build (about 15 s on an idle machine) took over 4 minutes on the shared 2-core one.
    testInfo.setTimeout(600_000)
    await ensureBasePathBuild()
    const ports = portsOf(testInfo.project.name)
    second = await startSecondConsole(
      ['npx', 'tsx', 'server/index.ts'],
      ports.console,
      // the proxy below (on loopback) sets X-Forwarded-*: this console believes it (issue 49)
      { BUILD_DIR, BASE_PATH: BASE, TRUST_PROXY: 'loopback' },
      `${BASE}/login`,
    )
    proxy = await startProxy(ports.proxy, ports.console)
    origin = `http://127.0.0.1:${ports.proxy}`
  })

  test.afterAll(async () => {
    await new Promise((resolve) => proxy?.close(resolve) ?? resolve(undefined))
    await second?.stop()
  })

  test('pages, assets and health checks answer under /console', async () => {
    const login = await fetch(`${origin}${BASE}/login`)
    expect(login.status).toBe(200)
    const html = await login.text()
    const assets = [...html.matchAll(/(?:href|src)="([^"]+\.(?:js|css))"/g)].map((match) => match[1]!)
    expect(assets.length).toBeGreaterThan(0)
    // the build's assets, and the theme's stylesheet (a resource route, decision 020), all under the base
    for (const asset of assets)
      expect(asset.startsWith(`${BASE}/assets/`) || asset.startsWith(`${BASE}/resources/theme/`), asset).toBe(true)
    expect((await fetch(`${origin}${assets[0]}`)).status).toBe(200)
    const stylesheet = assets.find((asset) => asset.startsWith(`${BASE}/resources/theme/`))
    expect(stylesheet).toBeDefined()
    const css = await fetch(`${origin}${stylesheet}`)
    expect(css.status).toBe(200)
    expect(css.headers.get('content-type')).toMatch(/^text\/css/)
    expect(html).toContain(`"basename":"${BASE}"`)
    expect((await fetch(`${origin}${BASE}/healthz`)).status).toBe(200)
    // A page that does not exist is the console's own 404, still under the base path.
    const missing = await fetch(`${origin}${BASE}/no-such-page`, { redirect: 'manual' })
    expect([302, 404]).toContain(missing.status)
  })

  test('login comes back to prevUrl, links, forms, toasts and logout stay under /console, cookies are scoped to it', async ({
    page,
    context,
  }) => {
    // A second console's first pages (cold caches, a shared machine) can be slow.
    test.setTimeout(120_000)
    await page.goto(`${origin}${BASE}/data/new-table`)
    await expect(page).toHaveURL(`${origin}${BASE}/login?prevUrl=%2Fdata%2Fnew-table`)
    await logIn(page)
    await expect(page).toHaveURL(`${origin}${BASE}/data/new-table`, { timeout: 30_000 })
    await expect(page.getByRole('heading', { level: 1, name: 'New table' })).toBeVisible({ timeout: 30_000 })
    const cookies = (await context.cookies()).filter((cookie) => cookie.name.startsWith('cc_'))
    expect(cookies.map((cookie) => cookie.name)).toContain('cc_session')
    for (const cookie of cookies) expect(cookie.path, cookie.name).toBe(BASE)

    // A form post, its redirect and the toast it carries.
    const project = uniqueName('bp_project')
    const table = uniqueName('bp_table')
    await page.getByLabel('Project', { exact: true }).selectOption({ label: 'New project…' })
    await page.getByLabel('New project name').fill(project)
    await page.getByLabel('Table name').fill(table)
    await page.getByRole('button', { name: 'Create table' }).click()
    await expect(page.getByRole('heading', { level: 1, name: new RegExp(table) })).toBeVisible({ timeout: 30_000 })
    expect(new URL(page.url()).pathname.startsWith(`${BASE}/data/tables/`)).toBe(true)
    await expect(page.getByText(new RegExp(`${table}.*created|created.*${table}`, 'i')).first()).toBeVisible()

    // A link in the shell.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Data', exact: true }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Tables' })).toBeVisible({ timeout: 30_000 })
    await expect(page).toHaveURL(new RegExp(`^${origin}${BASE}/data`))
    // A GET form: the org holds more tables than a page (e2e/global-setup.ts), the filter finds it.
    await page.getByLabel('Filter by table or project name').fill(table)
    await page.getByLabel('Filter by table or project name').press('Enter')
    await expect(page).toHaveURL(new RegExp(`^${origin}${BASE}/data/tables\\?.*q=${table}`), { timeout: 30_000 })
    await expect(page.getByRole('link', { name: table })).toHaveAttribute('href', new RegExp(`^${BASE}/data/tables/`))

    // Logout.
    await page.getByRole('banner').getByRole('button', { name: /@/ }).click()
    await page.getByRole('button', { name: 'Log out' }).click()
    await expect(page).toHaveURL(new RegExp(`^${origin}${BASE}/login`), { timeout: 30_000 })
    expect((await context.cookies()).filter((cookie) => cookie.name === 'cc_session')).toEqual([])
    await page.goto(`${origin}${BASE}/dashboard`)
    await expect(page).toHaveURL(`${origin}${BASE}/login?prevUrl=%2Fdashboard`)
  })
})
