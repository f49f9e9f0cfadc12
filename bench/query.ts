/**
 * Query bench (issue 11): in Chromium (/usr/bin/chromium through Playwright), the time from pressing
 * Run to the first result rows on screen, and the bytes of the result page, for 100, 10,000 and
 * 100,000-row queries (the UI's 10,000-row cap applies), with and without scripts. Beside each, the
 * cluster's own time for the same SQL (the whole answer fetched directly), so "console time" is what
 * the console adds after the query returns. With scripts, also the time until every row is in the
 * grid and the frame times while scrolling it from top to bottom.
 * Run after `npm run build` (it builds when no build is found): `npm run bench -- query` or
 * `npx tsx bench/query.ts` (env BENCH_QUERY_RUNS, default 3: the median is reported).
 */
import { rmSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { pathToFileURL } from 'node:url'
import { chromium, type Browser, type Page } from '@playwright/test'
import { ADMIN, consoleLogin, ensureBuild, startBenchCluster, startConsole } from './console'

export type QueryBenchRow = {
  rows: number
  shown: number
  scripts: boolean
  /** Run pressed → first result row visible, ms (median). */
  firstRowsMs: number
  /** The cluster answering the same SQL in full, fetched directly, ms (median). */
  clusterMs: number
  /** firstRowsMs − clusterMs: what the console and the browser add after the query returns. */
  consoleMs: number
  /** With scripts, by the page's own clock: the form's submit → the frame that paints the first row (median). */
  inPageMs?: number
  /** inPageMs − clusterMs: after the query returns, as the page measures it (issue 11's goal: < 300 ms). */
  afterReturnMs?: number
  /** With scripts: Run pressed → every row in the grid, ms (median). */
  allRowsMs?: number
  /** The /result document as served: bytes, and gzipped. */
  htmlKb: number
  htmlGzipKb: number
  /** With scripts, a client navigation's data (/result.data), KB. */
  dataKb?: number
  /** With scripts: scrolling the grid top to bottom, frame time p50 / max (ms). */
  scrollFrameP50Ms?: number
  scrollFrameMaxMs?: number
}

const SIZES = [100, 10_000, 100_000]
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Eight columns of the kinds a log table has: numbers, strings, a time, a nullable. */
function sqlFor(rows: number, run: string) {
  return [
    `SELECT /* ${run} */ number AS id, toDateTime('2026-01-01 00:00:00') + number AS ts, concat('/path/', toString(number % 977)) AS path,`,
    `  ['GET', 'POST', 'PUT'][number % 3 + 1] AS method, 200 + number % 5 AS status, number * 37 % 100000 AS bytes,`,
    `  if(number % 7 = 0, NULL, concat('agent-', toString(number % 13))) AS agent, number * 1.5 AS score`,
    `FROM numbers(${rows})`,
  ].join('\n')
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : 0
}
const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10

async function clusterTime(clusterUrl: string, token: string, sql: string): Promise<number> {
  const started = performance.now()
  const response = await fetch(
    `${clusterUrl}/query?hdx_query_output_format=JSONCompactEachRowWithNamesAndTypes` +
      '&hdx_query_max_result_rows=10000&result_overflow_mode=break',
    {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/plain' },
      body: sql,
    },
  )
  await response.arrayBuffer()
  if (!response.ok) throw new Error(`cluster /query answered ${response.status}`)
  return performance.now() - started
}

/** Opens the editor with `sql`, presses Run and waits for the first row; returns ms. */
async function runInPage(
  page: Page,
  base: string,
  sql: string,
  scripts: boolean,
  expected: number,
): Promise<{ firstMs: number; inPageMs?: number; allMs?: number }> {
  await page.goto(`${base}/queries?${new URLSearchParams({ data: sql })}`)
  if (scripts) {
    await page.locator('.ace_editor').waitFor()
    // The page's own clock: the form's submit event, then the first row in the document and the
    // frame that paints it. (Playwright's click and polling add their own tens of ms around it.)
    await page.evaluate(() => {
      const marks: Record<string, number> = {}
      ;(window as unknown as { __benchMarks: Record<string, number> }).__benchMarks = marks
      document.addEventListener('submit', () => (marks.submit = performance.now()), { capture: true, once: true })
      const observer = new MutationObserver(() => {
        if (marks.row || !document.querySelector('tbody tr[aria-rowindex="2"]')) return
        marks.row = performance.now()
        observer.disconnect()
        requestAnimationFrame(() => setTimeout(() => (marks.painted = performance.now()), 0))
      })
      observer.observe(document.body, { childList: true, subtree: true })
    })
  }
  const started = Date.now()
  await page.getByRole('button', { name: 'Run' }).click()
  await page.locator('tbody tr[aria-rowindex="2"]').waitFor({ state: 'visible', timeout: 120_000 })
  const firstMs = Date.now() - started
  if (!scripts) return { firstMs }
  const marks = await page.waitForFunction(() => {
    const m = (window as unknown as { __benchMarks: Record<string, number> }).__benchMarks
    return m.painted && m.submit ? m : null
  })
  const { submit, painted } = (await marks.jsonValue()) as { submit: number; painted: number }
  const inPageMs = painted - submit
  // Every row is in the grid when the last one can be scrolled to.
  await page.waitForFunction(
    (count) => {
      const grid = document.querySelector('[data-testid=result-grid]')
      return grid ? grid.scrollHeight >= count * 29 : false
    },
    expected,
    { timeout: 120_000, polling: 10 },
  )
  return { firstMs, inPageMs, allMs: Date.now() - started }
}

/** Scrolls the grid from top to bottom in 60 steps, one per frame; returns frame times. */
async function scrollFrames(page: Page): Promise<number[]> {
  return page.evaluate(async () => {
    const grid = document.querySelector('[data-testid=result-grid]') as HTMLElement
    const frames: number[] = []
    let last = performance.now()
    for (let step = 1; step <= 60; step++) {
      grid.scrollTop = (grid.scrollHeight * step) / 60
      await new Promise((resolve) => requestAnimationFrame(resolve))
      const now = performance.now()
      frames.push(now - last)
      last = now
    }
    return frames
  })
}

export async function runQueryBench(
  options: { runs?: number; log?: (line: string) => void } = {},
): Promise<QueryBenchRow[]> {
  const log = options.log ?? ((line: string) => console.log(line))
  const runs = options.runs ?? Number(process.env.BENCH_QUERY_RUNS ?? 3)
  ensureBuild(log)
  const { dataDir, cluster } = await startBenchCluster('query-bench-cluster-')
  let server: Awaited<ReturnType<typeof startConsole>> | undefined
  let browser: Browser | undefined
  const rows: QueryBenchRow[] = []
  try {
    server = await startConsole(cluster.url)
    const cookie = await consoleLogin(server.base)
    const login = await fetch(`${cluster.url}/config/v1/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: ADMIN.email, password: ADMIN.password }),
    })
    const token = ((await login.json()) as { auth_token: { access_token: string } }).auth_token.access_token
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS })
    const cookies = cookie.split('; ').map((pair) => {
      const index = pair.indexOf('=')
      return { name: pair.slice(0, index), value: pair.slice(index + 1), url: server!.base }
    })
    for (const scripts of [true, false]) {
      const context = await browser.newContext({ javaScriptEnabled: scripts, viewport: { width: 1280, height: 800 } })
      await context.addCookies(cookies)
      const page = await context.newPage()
      // A first run warms the server's route modules and the browser's cache of the scripts.
      await runInPage(page, server.base, sqlFor(10, 'warm-up'), scripts, 10)
      for (const size of SIZES) {
        const shown = Math.min(size, 10_000)
        const first: number[] = []
        const inPage: number[] = []
        const all: number[] = []
        const clusterMs: number[] = []
        let frames: number[] = []
        for (let run = 0; run < runs; run++) {
          // A fresh statement each run: the result cache never answers the measured run.
          const sql = sqlFor(size, `${scripts ? 'js' : 'nojs'} ${run} ${Date.now()}`)
          const timing = await runInPage(page, server.base, sql, scripts, shown)
          first.push(timing.firstMs)
          if (timing.inPageMs !== undefined) inPage.push(timing.inPageMs)
          if (timing.allMs !== undefined) all.push(timing.allMs)
          clusterMs.push(await clusterTime(cluster.url, token, sqlFor(size, `direct ${run} ${Date.now()}`)))
          if (scripts && run === 0) frames = await scrollFrames(page)
        }
        const probe = sqlFor(size, `bytes ${scripts} ${Date.now()}`)
        const html = Buffer.from(
          await (
            await fetch(`${server.base}/result?${new URLSearchParams({ sql: probe })}`, { headers: { Cookie: cookie } })
          ).arrayBuffer(),
        )
        let dataKb: number | undefined
        if (scripts) {
          const dataAnswer = await fetch(`${server.base}/result.data?${new URLSearchParams({ sql: probe })}`, {
            headers: { Cookie: cookie },
          })
          dataKb = kb((await dataAnswer.arrayBuffer()).byteLength)
        }
        const row: QueryBenchRow = {
          rows: size,
          shown,
          scripts,
          firstRowsMs: Math.round(median(first)),
          clusterMs: Math.round(median(clusterMs)),
          consoleMs: Math.round(median(first) - median(clusterMs)),
          inPageMs: inPage.length ? Math.round(median(inPage)) : undefined,
          afterReturnMs: inPage.length ? Math.round(median(inPage) - median(clusterMs)) : undefined,
          allRowsMs: all.length ? Math.round(median(all)) : undefined,
          htmlKb: kb(html.byteLength),
          htmlGzipKb: kb(gzipSync(html).byteLength),
          dataKb,
          scrollFrameP50Ms: frames.length ? Math.round(median(frames) * 10) / 10 : undefined,
          scrollFrameMaxMs: frames.length ? Math.round(Math.max(...frames) * 10) / 10 : undefined,
        }
        rows.push(row)
      }
      await context.close()
    }
  } finally {
    await browser?.close()
    await server?.stop()
    await cluster.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
  log(`\nQuery: Run → first rows on screen, in Chromium (median of ${runs}; cluster = the same SQL fetched directly)`)
  log(
    '  first ms: the click by Playwright → the row visible; ' +
      'in-page: the submit event → the frame painting the first row (scripts only); after = in-page − cluster',
  )
  log(
    `${'rows'.padStart(8)} ${'shown'.padStart(7)} ${'scripts'.padStart(8)} ${'first ms'.padStart(9)} ` +
      `${'cluster'.padStart(8)} ${'console'.padStart(8)} ${'in-page'.padStart(8)} ${'after'.padStart(6)} ` +
      `${'all ms'.padStart(7)} ${'HTML KB'.padStart(8)} ${'gz KB'.padStart(7)} ${'data KB'.padStart(8)} ` +
      `${'scroll p50/max ms'.padStart(18)}`,
  )
  for (const row of rows) {
    const scroll = row.scrollFrameP50Ms !== undefined ? `${row.scrollFrameP50Ms}/${row.scrollFrameMaxMs}` : '-'
    log(
      `${String(row.rows).padStart(8)} ${String(row.shown).padStart(7)} ${(row.scripts ? 'yes' : 'no').padStart(8)} ` +
        `${String(row.firstRowsMs).padStart(9)} ${String(row.clusterMs).padStart(8)} ${String(row.consoleMs).padStart(8)} ` +
        `${String(row.inPageMs ?? '-').padStart(8)} ${String(row.afterReturnMs ?? '-').padStart(6)} ` +
        `${String(row.allRowsMs ?? '-').padStart(7)} ${row.htmlKb.toFixed(1).padStart(8)} ` +
        `${row.htmlGzipKb.toFixed(1).padStart(7)} ${(row.dataKb?.toFixed(1) ?? '-').padStart(8)} ${scroll.padStart(18)}`,
    )
  }
  return rows
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  runQueryBench().catch((error: unknown) => {
    console.error(error)
    process.exitCode = 1
  })
}
