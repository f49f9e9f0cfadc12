/**
 * A small, honest subset of the Prometheus HTTP API over the cluster's own counters
 * (cluster/metrics.ts, 10-second buckets, last 24 h):
 *
 *   metric                         cumulative counter per label set (since the process started)
 *   up                             1 per service of this process (a gauge)
 *   metric{service="x",status=~"5.."}   label matchers =, !=, =~, !~
 *   rate(metric[5m]) / increase(metric[5m])
 *   sum(expr), sum by (label, ...) (expr), sum(expr) by (label)
 *
 * Anything else answers 400 `{"status":"error","errorType":"bad_data",...}` as Prometheus does.
 */
import type { Ctx } from '../context'
import { json } from '../http'
import { requireUser } from '../config/access'
import type { Metrics } from '../metrics'

type Matcher = { label: string; op: '=' | '!=' | '=~' | '!~'; value: string }
type Series = { labels: Record<string, string>; at: (t: number) => number }

class PromError extends Error {}

function parseDuration(s: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d|w)?$/.exec(s.trim())
  if (!m) throw new PromError(`invalid duration "${s}"`)
  const unit = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400, w: 604800 }[m[2] ?? 's']!
  return Number(m[1]) * unit * 1000
}

function parseTimeParam(value: string | null, fallback: number): number {
  if (value === null || value === '') return fallback
  if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value) * 1000
  const t = Date.parse(value)
  if (!Number.isFinite(t)) throw new PromError(`invalid time "${value}"`)
  return t
}

function parseSelector(text: string): { name: string; matchers: Matcher[] } {
  const m = /^([a-zA-Z_:][\w:]*)\s*(?:\{(.*)\})?$/.exec(text.trim())
  if (!m)
    throw new PromError(
      `unsupported expression "${text}" (supported: metric{labels}, rate/increase(metric[5m]), sum [by (labels)] (...))`,
    )
  const matchers: Matcher[] = []
  if (m[2]?.trim()) {
    const re = /\s*([a-zA-Z_]\w*)\s*(=~|!~|!=|=)\s*"((?:[^"\\]|\\.)*)"\s*(,|$)/y
    let pos = 0
    const body = m[2]
    while (pos < body.length) {
      re.lastIndex = pos
      const mm = re.exec(body)
      if (!mm) throw new PromError(`invalid label matchers "{${body}}"`)
      matchers.push({ label: mm[1], op: mm[2] as Matcher['op'], value: mm[3].replace(/\\(.)/g, '$1') })
      pos = re.lastIndex
      if (!mm[4]) break
    }
  }
  return { name: m[1], matchers }
}

function matches(labels: Record<string, string>, matchers: Matcher[]) {
  return matchers.every(({ label, op, value }) => {
    const v = labels[label] ?? ''
    if (op === '=') return v === value
    if (op === '!=') return v !== value
    const re = new RegExp(`^(?:${value})$`)
    return op === '=~' ? re.test(v) : !re.test(v)
  })
}

/** The services this process serves: `up{service}` is 1 for each (they live and die together). */
const SERVICES = ['turbine-api', 'query-head', 'intake-head', 'batch-peer', 'alter-peer', 'prometheus']

function selectSeries(
  metrics: Metrics,
  text: string,
  rangeMs: number | null,
  fn: 'rate' | 'increase' | null,
): Series[] {
  const { name, matchers } = parseSelector(text)
  if (name === 'up') {
    return SERVICES.map((service) => ({ labels: { __name__: 'up', service } }))
      .filter((s) => matches(s.labels, matchers))
      .map((s) => ({ labels: s.labels, at: () => (fn === 'rate' ? 0 : 1) }))
  }
  return metrics
    .select(name)
    .filter((s) => matches(s.labels, matchers))
    .map((s) => {
      const entries = [...s.buckets.entries()].sort((a, b) => a[0] - b[0])
      const at =
        fn && rangeMs
          ? (t: number) => {
              // buckets starting inside (t - range, t]
              let total = 0
              for (const [bt, v] of entries) if (bt > t - rangeMs && bt <= t) total += v
              return fn === 'rate' ? total / (rangeMs / 1000) : total
            }
          : (t: number) => {
              let total = 0
              for (const [bt, v] of entries) if (bt <= t) total += v
              return total
            }
      return { labels: { __name__: name, ...s.labels }, at }
    })
}

function evaluate(metrics: Metrics, query: string): Series[] {
  const q = query.trim()
  // sum by (a,b) (expr) | sum (expr) by (a,b) | sum(expr)
  const sum = /^sum\s*(?:by\s*\(([^)]*)\)\s*)?\(([\s\S]*)\)\s*(?:by\s*\(([^)]*)\))?$/.exec(q)
  if (sum) {
    const by = (sum[1] ?? sum[3] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
    const inner = evaluate(metrics, sum[2])
    const groups = new Map<string, { labels: Record<string, string>; members: Series[] }>()
    for (const s of inner) {
      const labels = Object.fromEntries(by.map((l) => [l, s.labels[l] ?? '']))
      const key = JSON.stringify(labels)
      if (!groups.has(key)) groups.set(key, { labels, members: [] })
      groups.get(key)!.members.push(s)
    }
    if (groups.size === 0 && by.length === 0) return [{ labels: {}, at: () => 0 }]
    return [...groups.values()].map((g) => ({
      labels: g.labels,
      at: (t: number) => g.members.reduce((acc, m) => acc + m.at(t), 0),
    }))
  }
  const fn = /^(rate|increase|irate)\s*\(\s*([\s\S]*)\[\s*([^\]]+)\]\s*\)$/.exec(q)
  if (fn) {
    const series = selectSeries(metrics, fn[2], parseDuration(fn[3]), fn[1] === 'increase' ? 'increase' : 'rate')
    return series.map((s) => ({
      labels: Object.fromEntries(Object.entries(s.labels).filter(([k]) => k !== '__name__')),
      at: s.at,
    }))
  }
  return selectSeries(metrics, q, null, null)
}

const fmt = (v: number) => (Number.isInteger(v) ? String(v) : String(Number(v.toFixed(6))))

function promError(message: string, status = 400) {
  return json({ status: 'error', errorType: 'bad_data', error: message }, status)
}

export function handleQueryRange(ctx: Ctx): Response {
  requireUser(ctx)
  const p = ctx.url.searchParams
  const query = p.get('query')
  if (!query) return promError('missing parameter "query"')
  try {
    const now = Date.now()
    const end = parseTimeParam(p.get('end'), now)
    const start = parseTimeParam(p.get('start'), end - 3600_000)
    const stepRaw = p.get('step') ?? '60'
    const step = /^\d+(\.\d+)?$/.test(stepRaw) ? Number(stepRaw) * 1000 : parseDuration(stepRaw)
    if (!(step > 0))
      return promError('zero or negative query resolution step widths are not accepted. Try a positive integer')
    if (end < start) return promError('end timestamp must not be before start time')
    if ((end - start) / step > 11000)
      return promError(
        'exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)',
      )
    const series = evaluate(ctx.cluster.metrics, query)
    const result = series.map((s) => {
      const values: [number, string][] = []
      for (let t = start; t <= end; t += step) values.push([Math.round(t) / 1000, fmt(s.at(t))])
      return { metric: s.labels, values }
    })
    return json({ status: 'success', data: { resultType: 'matrix', result } })
  } catch (error) {
    if (error instanceof PromError || error instanceof SyntaxError) return promError(error.message)
    throw error
  }
}

export function handleInstant(ctx: Ctx): Response {
  requireUser(ctx)
  const p = ctx.url.searchParams
  const query = p.get('query')
  if (!query) return promError('missing parameter "query"')
  try {
    const t = parseTimeParam(p.get('time'), Date.now())
    const result = evaluate(ctx.cluster.metrics, query).map((s) => ({
      metric: s.labels,
      value: [Math.round(t) / 1000, fmt(s.at(t))],
    }))
    return json({ status: 'success', data: { resultType: 'vector', result } })
  } catch (error) {
    if (error instanceof PromError || error instanceof SyntaxError) return promError(error.message)
    throw error
  }
}

export function handleLabelValues(ctx: Ctx): Response {
  requireUser(ctx)
  const label = ctx.params.label
  const metrics = ctx.cluster.metrics
  if (label === '__name__') return json({ status: 'success', data: metrics.names().sort() })
  const values = new Set<string>()
  for (const name of metrics.names())
    for (const s of metrics.select(name)) if (s.labels[label] !== undefined) values.add(s.labels[label])
  return json({ status: 'success', data: [...values].sort() })
}
