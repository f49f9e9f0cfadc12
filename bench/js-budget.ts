import { measureRouteBundles, SHELL, type RouteBundle } from './bundle-sizes'

/** Issue 33's budgets, gzipped KB (1 KB = 1,024 bytes): every route's first load, and the shell's. */
export const ROUTE_BUDGET_KB = 170
export const SHELL_BUDGET_KB = 120

export type BudgetRow = { url: string; routeId: string; kb: number; budgetKb: number; isOver: boolean }

function kb(bytes: number) {
  return Math.round((bytes / 1024) * 10) / 10
}

/**
 * Every route's initial JavaScript beside its budget: the shell (entry + root) against
 * `SHELL_BUDGET_KB`, every other route against `ROUTE_BUDGET_KB`. A route is over when its
 * unrounded size is.
 */
export function budgetRows(bundles: RouteBundle[]): BudgetRow[] {
  return bundles.map((route) => {
    const budgetKb = route.url === SHELL ? SHELL_BUDGET_KB : ROUTE_BUDGET_KB
    return {
      url: route.url,
      routeId: route.routeId,
      kb: kb(route.jsGzipBytes),
      budgetKb,
      isOver: route.jsGzipBytes > budgetKb * 1024,
    }
  })
}

/**
 * Routes over ROUTE_BUDGET_KB allowed to weigh up to a ceiling until they are brought under
 * (decision 075). Empty since decision 077's last stop: every route is within the budget. The
 * check fails when a listed route grows past its ceiling and when it is within the budget (so the
 * list only shrinks); a route over the budget and not listed fails it.
 */
export const OVER_BUDGET_CEILINGS_KB: Record<string, number> = {}

/**
 * What breaks the budget, one line per route (empty when every route is within it). `ceilings`
 * lets the routes it names weigh up to their figure instead of the budget.
 */
export function budgetProblems(bundles: RouteBundle[], ceilings: Record<string, number> = {}): string[] {
  if (!bundles.some((route) => route.url === SHELL)) return ['the build has no root route: nothing was measured']
  const problems: string[] = []
  for (const row of budgetRows(bundles)) {
    const ceiling = ceilings[row.routeId]
    if (ceiling === undefined || row.url === SHELL) {
      if (row.isOver)
        problems.push(`${row.url} (${row.routeId}): ${row.kb.toFixed(1)} KB gz, over its ${row.budgetKb} KB`)
    } else if (!row.isOver) {
      problems.push(
        `${row.url} (${row.routeId}): ${row.kb.toFixed(1)} KB gz is within ${row.budgetKb} KB: take it off OVER_BUDGET_CEILINGS_KB`,
      )
    } else if (row.kb > ceiling) {
      problems.push(
        `${row.url} (${row.routeId}): ${row.kb.toFixed(1)} KB gz, over its ${row.budgetKb} KB and past its ceiling of ${ceiling} KB`,
      )
    }
  }
  for (const routeId of Object.keys(ceilings))
    if (!bundles.some((route) => route.routeId === routeId))
      problems.push(`${routeId}: listed with a ceiling, not in the build`)
  for (const route of bundles.filter((r) => r.heavy.length))
    problems.push(`${route.url}: ${route.heavy.join(', ')} in its first load`)
  return problems
}

/** `npm run bench js` (no ceilings) and the check: prints the table and returns the rows with the problems. */
export function runJsBudget(
  clientDir: string,
  {
    ceilings = {},
    log = (line: string) => console.log(line),
  }: { ceilings?: Record<string, number>; log?: (line: string) => void } = {},
) {
  const bundles = measureRouteBundles(clientDir)
  const rows = budgetRows(bundles).sort((a, b) => b.kb - a.kb)
  log('Initial JavaScript per route, gzipped (entry + root + layouts + route + their static imports)')
  log(`${'route'.padEnd(60)} ${'KB gz'.padStart(7)} ${'budget'.padStart(7)}  within`)
  for (const row of rows)
    log(
      `${row.url.padEnd(60)} ${row.kb.toFixed(1).padStart(7)} ${String(row.budgetKb).padStart(7)}  ${row.isOver ? 'NO' : 'yes'}`,
    )
  const sizes = rows
    .filter((row) => row.url !== SHELL)
    .map((row) => row.kb)
    .sort((a, b) => a - b)
  const median = sizes.length ? sizes[Math.floor((sizes.length - 1) / 2)]! : NaN
  log(`median route ${median.toFixed(1)} KB gz; heaviest ${sizes.at(-1)?.toFixed(1)} KB gz`)
  const problems = budgetProblems(bundles, ceilings)
  const over = rows.filter((row) => row.isOver).length
  log(over ? `${over} over budget` : 'OK: every route within budget')
  return { rows, median, problems }
}
