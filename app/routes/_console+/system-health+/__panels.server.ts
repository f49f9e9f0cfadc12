import type { ClusterApi } from '~/api/client.server'
import { promString, queryRange } from '~/api/health.server'
import type { ResolvedRange } from './__range'
import type { SeriesPanelData } from './__series'
import { settle } from '~/api/policies.server'

/** The Counts panels: one cluster counter each, counted per interval and split by one label. */
export const PANELS = [
  {
    id: 'requests',
    title: 'Requests per service',
    description: 'HTTP requests answered, per interval.',
    metric: 'http_requests_total',
    by: 'service',
    unit: 'requests',
  },
  {
    id: 'errors',
    title: 'Errors per service',
    description: 'Requests answered with a 5xx status, per interval.',
    metric: 'http_errors_total',
    by: 'service',
    unit: 'errors',
  },
  {
    id: 'queries',
    title: 'Queries by result',
    description: 'SQL queries run through the query API, per interval.',
    metric: 'queries_total',
    by: 'status',
    unit: 'queries',
  },
  {
    id: 'rows',
    title: 'Rows ingested per service',
    description: 'Rows written by stream ingest, batch jobs and the sample seed, per interval.',
    metric: 'rows_ingested_total',
    by: 'service',
    unit: 'rows',
  },
] as const

/** What one Counts view is narrowed to: one service, one pool, both or neither. */
export type PanelScope = { service?: string; pool?: string }

/** The PromQL for a panel: per-interval increases, summed by the panel's label, for one service and pool or all. */
export function panelQuery(panel: (typeof PANELS)[number], stepSeconds: number, scope: PanelScope = {}): string {
  const matchers = [
    scope.service ? `service=${promString(scope.service)}` : '',
    scope.pool ? `pool=${promString(scope.pool)}` : '',
  ].filter(Boolean)
  const selector = matchers.length ? `{${matchers.join(',')}}` : ''
  return `sum by (${panel.by}) (increase(${panel.metric}${selector}[${stepSeconds}s]))`
}

/** One panel's series over `range`; a failure becomes the panel's message (see settle). */
export async function loadPanel(
  api: ClusterApi,
  panel: (typeof PANELS)[number],
  range: ResolvedRange,
  scope: PanelScope = {},
): Promise<SeriesPanelData> {
  const step = range.stepSeconds
  // Each point counts the interval that ends at it, so the first one ends a step after the start.
  const settled = await settle(() =>
    queryRange(api, {
      query: panelQuery(panel, step, scope),
      start: Math.min(range.start + step * 1000, range.end),
      end: range.end,
      stepSeconds: step,
    }),
  )
  const base = { id: panel.id, title: panel.title, description: panel.description, unit: panel.unit }
  if (settled.error !== null) return { ...base, times: [], series: [], total: 0, error: settled.error }
  const result = settled.value
  const times = result[0]?.values.map(([t]) => Math.round(t * 1000)) ?? []
  const series = result
    .map((entry) => ({
      name: entry.metric[panel.by] ?? '',
      values: entry.values.map(([, value]) => Math.round(Number(value) || 0)),
    }))
    .sort((a, b) => a.name.localeCompare(b.name))
  const total = series.reduce((sum, entry) => sum + entry.values.reduce((a, b) => a + b, 0), 0)
  // A counter that never moved in the range is noise in a chart: keep series with something in them.
  const moving = series.filter((entry) => entry.values.some((value) => value !== 0))
  return { ...base, times, series: moving, total, error: null }
}
