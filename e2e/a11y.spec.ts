import AxeBuilder from '@axe-core/playwright'
import { expect, test } from './fixtures'
import { builtRoutes, concretePath, cookieHeader, createTableByPost } from './routes'

/**
 * axe on every page of the console (from the server build, so new sections are included), with
 * and without scripts: no serious or critical violation of WCAG 2 A/AA (issue 13). The counts per
 * route are attached to the test and printed.
 */
test.describe('accessibility', () => {
  test.setTimeout(10 * 60_000)

  test('every page has no serious or critical axe violation', async ({
    authedPage,
    browser,
    sessionState,
  }, testInfo) => {
    // axe runs as a script in the page. Without scripts, it checks the same server HTML with its
    // scripts removed, in a context where axe itself may run: what a browser without scripts shows.
    const isNoJs = testInfo.project.use.javaScriptEnabled === false
    const page = isNoJs
      ? await (
          await browser.newContext({
            baseURL: testInfo.project.use.baseURL,
            storageState: sessionState,
            javaScriptEnabled: true,
          })
        ).newPage()
      : authedPage
    if (isNoJs) {
      await page.route('**/*', async (route) => {
        if (route.request().resourceType() === 'script') return route.abort()
        if (route.request().resourceType() !== 'document') return route.continue()
        // once more when the kept-alive socket it reused was closed under it (the server closes an
        // idle one after 5 s, and axe can take that long on a page): seen once as ECONNRESET
        const response = await route.fetch().catch(() => route.fetch())
        const html = (await response.text())
          .replace(/<script\b[\s\S]*?<\/script>/gi, '')
          .replace(/<link rel="modulepreload"[^>]*>/gi, '')
        await route.fulfill({ response, body: html })
      })
    }
    const ids: Record<string, string> = { tableId: await createTableByPost(cookieHeader(sessionState), 'a11y') }
    const pages = (await builtRoutes()).filter((route) => route.isPage)
    expect(pages.length).toBeGreaterThan(10)
    const lines: string[] = []
    const failures: string[] = []
    // pages a route's bare path does not show: a result's chart (issue 51)
    const shown = [
      ...pages.map((route) => concretePath(route.path, ids)),
      `/result?${new URLSearchParams({
        sql:
          'SELECT toStartOfMinute(timestamp) AS minute, count() AS requests FROM sample.web_logs ' +
          'GROUP BY minute ORDER BY minute',
        tab: 'chart',
      })}`,
    ]
    for (const url of shown) {
      // the public pages redirect a signed-in user; axe checks whatever page the user ends on
      await page.goto(url)
      await page.waitForLoadState('load')
      const results = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .analyze()
        .catch((error: Error) => {
          throw new Error(`axe on ${url} (${page.url()}): ${error.message}`)
        })
      const bad = results.violations.filter(
        (violation) => violation.impact === 'serious' || violation.impact === 'critical',
      )
      const minor = results.violations.length - bad.length
      lines.push(`${url.padEnd(60)} ${bad.length} serious/critical, ${minor} other`)
      for (const violation of bad) {
        failures.push(
          `${url}: ${violation.id} (${violation.impact}) ${violation.help} — ${violation.nodes
            .slice(0, 3)
            .map((node) => node.target.join(' '))
            .join(' | ')}`,
        )
      }
    }
    console.log(`axe (${testInfo.project.name}): ${pages.length} pages\n${lines.join('\n')}`)
    expect(failures, failures.join('\n')).toEqual([])
  })
})
