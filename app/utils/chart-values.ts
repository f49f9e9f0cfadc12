/**
 * The chart's URL names, apart from chart-spec.ts: the result page's own code needs only these, and
 * a module the page imports brings all of its used exports into the page's first load (decision 100).
 */

/** The URL fields of a chart choice (besides `tab=chart`). */
export const CHART_FIELDS = ['chart', 'x', 'y', 'split'] as const

/** The tab of a result that shows its chart (`/result?…&tab=chart`). */
export const CHART_TAB = 'chart'
