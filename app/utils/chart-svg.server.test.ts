import { describe, expect, it } from 'vitest'
import { chartColumns, chartData, parseTime, type ChartSpec } from './chart-spec'
import { escapeXml, renderChartSvg } from './chart-svg.server'
import { niceTicks, timeTicks } from './chart-ticks'

describe('niceTicks', () => {
  it('steps by 1, 2 or 5 times a power of ten and covers the range', () => {
    expect(niceTicks(0, 52, 5).ticks.map((tick) => tick.value)).toEqual([0, 10, 20, 30, 40, 50, 60])
    expect(niceTicks(0.13, 0.91, 4).ticks.map((tick) => tick.label)).toEqual(['0.0', '0.2', '0.4', '0.6', '0.8', '1.0'])
    expect(niceTicks(-7, 3, 5).ticks.map((tick) => tick.value)).toEqual([-8, -6, -4, -2, 0, 2, 4])
    expect(niceTicks(1_200_000, 4_800_000, 4).ticks.map((tick) => tick.label)).toEqual(['1M', '2M', '3M', '4M', '5M'])
    expect(niceTicks(1000, 5000, 4).ticks.map((tick) => tick.label)).toEqual([
      '1,000',
      '2,000',
      '3,000',
      '4,000',
      '5,000',
    ])
  })

  it('widens a single value and an empty range', () => {
    expect(niceTicks(5, 5).ticks.length).toBeGreaterThan(1)
    expect(niceTicks(0, 0).ticks.map((tick) => tick.value)).toContain(0)
  })
})

describe('timeTicks', () => {
  it('puts ticks on whole minutes for an hour', () => {
    const start = Date.UTC(2026, 11, 2, 5, 3, 20)
    const ticks = timeTicks(start, start + 60 * 60_000, 6).ticks
    expect(ticks.length).toBeGreaterThanOrEqual(3)
    expect(ticks.length).toBeLessThanOrEqual(7)
    for (const tick of ticks) expect(tick.value % (10 * 60_000)).toBe(0)
    // the first tick says the day, the others the time
    expect(ticks[0]!.label).toMatch(/^12-02 \d\d:\d0$/)
    expect(ticks[1]!.label).toMatch(/^\d\d:\d0$/)
  })

  it('labels days across a month and months across years', () => {
    const days = timeTicks(Date.UTC(2026, 10, 1), Date.UTC(2026, 10, 30), 6).ticks
    expect(days[0]!.label).toMatch(/^2026-11-\d\d$/)
    const months = timeTicks(Date.UTC(2025, 0, 15), Date.UTC(2026, 11, 1), 6).ticks
    for (const tick of months) expect(tick.label).toMatch(/^\d{4}-\d\d$/)
    expect(months.every((tick) => new Date(tick.value).getUTCDate() === 1)).toBe(true)
  })

  it('shows seconds for a minute', () => {
    const start = Date.UTC(2026, 11, 2, 6, 0, 0)
    expect(timeTicks(start, start + 60_000, 6).ticks[1]!.label).toMatch(/^\d\d:\d\d:\d\d$/)
  })
})

const columns = chartColumns([
  { name: 'minute', type: 'DateTime' },
  { name: 'status', type: 'String' },
  { name: 'requests', type: 'UInt64' },
])
const rows = [
  ['2026-12-02 06:00:00', '200', '5'],
  ['2026-12-02 06:01:00', '200', '7'],
  ['2026-12-02 06:00:00', '404', '1'],
  ['2026-12-02 06:02:00', '404', '2'],
]

function svgOf(spec: ChartSpec, isCapped = false, data = rows, cols = columns) {
  return renderChartSvg(chartData(cols, data, spec, isCapped), { id: 'c1' })
}

describe('renderChartSvg', () => {
  it('has a title, a text alternative, both axes with labels and ticks, and a legend', () => {
    const svg = svgOf({ kind: 'line', x: 'minute', y: ['requests'], split: 'status' })
    expect(svg).toMatch(/^<svg [^>]*role="img" aria-labelledby="c1-title" aria-describedby="c1-desc"/)
    expect(svg).toContain('<title id="c1-title">Line chart: requests by minute, per status</title>')
    expect(svg).toContain(
      '<desc id="c1-desc">Line chart of requests by minute, per status. 2 series (200, 404), 4 points. ' +
        'minute from 2026-12-02 06:00:00 to 2026-12-02 06:02:00.',
    )
    // x ticks in time, y ticks in numbers, both axis titles
    expect(svg).toMatch(/>12-02 06:00:00</)
    expect(svg).toMatch(/>06:01:00</)
    expect(svg).toMatch(/>1<\/text>/)
    expect(svg).toMatch(/>7<\/text>/)
    expect(svg).toContain('font-weight="600">minute</text>')
    expect(svg).toContain('rotate(-90)" text-anchor="middle" font-weight="600">requests</text>')
    // a line per series and a legend entry per series, in the series' colours
    expect(svg.match(/<path class="qc-line"/g)).toHaveLength(2)
    expect(svg).toMatch(/<g class="qc-s0"><rect class="qc-mark"[^>]*\/><text[^>]*>200<\/text><\/g>/)
    expect(svg).toMatch(/<g class="qc-s1"><rect class="qc-mark"[^>]*\/><text[^>]*>404<\/text><\/g>/)
    // both themes: text in currentColor, a dark set of colours
    expect(svg).toContain('.qc-chart text{fill:currentColor}')
    expect(svg).toContain('.dark .qc-chart .qc-s0{--qc:#60a5fa}')
  })

  it('writes a column named <script> (and any markup in names or values) as text', () => {
    const evil = chartColumns([
      { name: '<script>alert(1)</script>', type: 'String' },
      { name: 'n"&\'<', type: 'UInt8' },
    ])
    const svg = svgOf(
      { kind: 'bar', x: '<script>alert(1)</script>', y: ['n"&\'<'], split: null },
      false,
      [
        ['<img src=x onerror=alert(1)>', '3'],
        ['</svg><script>x</script>', '4'],
      ],
      evil,
    )
    expect(svg).not.toMatch(/<script|<img|<\/svg><script/i)
    expect(svg).toContain('&#60;script&#62;alert(1)&#60;/script&#62;')
    expect(svg).toContain('n&#34;&#38;&#39;&#60;')
    expect(svg.match(/<svg /g)).toHaveLength(1)
    expect(escapeXml(`<a href="x">'&'</a>`)).toBe('&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;')
  })

  it('draws bars from zero and says when the result was cut', () => {
    const svg = svgOf({ kind: 'bar', x: 'minute', y: ['requests'], split: null }, true)
    expect(svg.match(/<rect class="qc-mark" x=/g)!.length).toBe(4 + 1)
    expect(svg).toContain('the result was cut at the query UI&#39;s limit')
    expect(svg).toContain('Only the first 4 rows of the result.')
  })

  it('stays small for the row cap: 10,000 points of a line are thinned to the pixels', () => {
    const many = Array.from({ length: 10_000 }, (_, at) => [
      new Date(parseTime('2026-12-02 00:00:00') + at * 60_000).toISOString().slice(0, 19).replace('T', ' '),
      'all',
      String(Math.round(50 + 40 * Math.sin(at / 30))),
    ])
    const svg = svgOf({ kind: 'line', x: 'minute', y: ['requests'], split: null }, true, many)
    expect(svg.length).toBeLessThan(40_000)
    const scatter = svgOf({ kind: 'scatter', x: 'minute', y: ['requests'], split: null }, true, many)
    expect(scatter.length).toBeLessThan(200_000)
  })

  it('is an image of its own with a link to the data when given one', () => {
    const svg = renderChartSvg(
      chartData(columns, rows, { kind: 'scatter', x: 'minute', y: ['requests'], split: null }, false),
      { dataHref: '/result?sql=SELECT+1&a="b"' },
    )
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]* width="720" height="\d+"/)
    expect(svg).toContain('<a href="/result?sql=SELECT+1&#38;a=&#34;b&#34;"><text')
    expect(svg).not.toContain('role="img"')
  })
})
