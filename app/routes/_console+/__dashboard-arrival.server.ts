import type { ClusterApi } from '~/api/client.server'
import { ClusterError } from '~/api/errors.server'
import { queryRange, type PromSeries } from '~/api/health.server'
import type { OrgArrival } from './__dashboard-arrival-values'

/*
 * "Is data arriving?" for the whole organization on the dashboard (issue 51, point 4; decision 101):
 * from the cluster's own ingest counter (`rows_ingested_total`, as System Health reads it), never a
 * query per table, so an org of 10,000 tables costs the same two reads as an org of one.
 */

const MINUTE = 60_000
const HOUR = 3_600_000
/** The cluster's counters are kept in 10-second buckets: the range ends at the current one's end. */
const BUCKET = 10_000
/** How many of the busiest tables the dashboard names. */
export const BUSIEST_TABLES = 5

function valuesOf(series: PromSeries[], points: number): number[] {
  const values = Array.from({ length: points }, () => 0)
  for (const entry of series)
    entry.values.slice(-points).forEach(([, value], index, list) => {
      values[points - list.length + index] += Math.round(Number(value) || 0)
    })
  return values
}

/** Each table's rows over the whole range: the sum of its series' points (each the increase of one step). */
function perTable(series: PromSeries[]): Map<string, number> {
  const totals = new Map<string, number>()
  for (const entry of series) {
    const table = entry.metric.table
    const value = entry.values.reduce((sum, [, point]) => sum + Math.round(Number(point) || 0), 0)
    if (table && value > 0) totals.set(table, (totals.get(table) ?? 0) + value)
  }
  return totals
}

/**
 * Rows ingested per minute over the last hour and per hour over the last day, and the busiest
 * tables of the day with their last hour: two Prometheus reads, each by table (the org's rows are
 * the tables' summed; a table's hour or day the sum of its steps, as the increase over the whole
 * range). A monitoring read the role may not make is the part's message ('This panel cannot be
 * accessed'), never the page's failure.
 */
export async function loadOrgArrival(api: ClusterApi): Promise<OrgArrival> {
  const end = Math.ceil(Date.now() / BUCKET) * BUCKET
  const minuteStart = end - 59 * MINUTE
  const hourStart = end - 23 * HOUR
  try {
    const [minutes, hours] = await Promise.all([
      queryRange(api, {
        query: 'sum by (table) (increase(rows_ingested_total[1m]))',
        start: minuteStart,
        end,
        stepSeconds: 60,
      }),
      queryRange(api, {
        query: 'sum by (table) (increase(rows_ingested_total[1h]))',
        start: hourStart,
        end,
        stepSeconds: 3600,
      }),
    ])
    const day = perTable(hours)
    const hour = perTable(minutes)
    const busiest = [...day.entries()]
      .sort((a, b) => (hour.get(b[0]) ?? 0) - (hour.get(a[0]) ?? 0) || b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, BUSIEST_TABLES)
      .map(([table, lastDay]) => ({
        table,
        lastDay,
        lastHour: hour.get(table) ?? 0,
        href: `/data/tables?${new URLSearchParams({ q: table.slice(table.indexOf('.') + 1) })}`,
      }))
    const minuteValues = valuesOf(minutes, 60)
    const hourValues = valuesOf(hours, 24)
    return {
      minutes: minuteValues,
      hours: hourValues,
      minuteStart,
      hourStart,
      lastHour: minuteValues.reduce((sum, n) => sum + n, 0),
      lastDay: hourValues.reduce((sum, n) => sum + n, 0),
      busiest,
      tablesWithRows: day.size,
      error: null,
    }
  } catch (error) {
    if (!(error instanceof ClusterError)) throw error
    return {
      minutes: [],
      hours: [],
      minuteStart,
      hourStart,
      lastHour: 0,
      lastDay: 0,
      busiest: [],
      tablesWithRows: 0,
      error: error.status === 403 ? 'This panel cannot be accessed' : error.message,
    }
  }
}
