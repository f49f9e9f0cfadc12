import { describe, expect, it } from 'vitest'
import {
  chartColumns,
  chartData,
  chartViewFields,
  columnKind,
  MAX_SERIES,
  parseTime,
  pickChart,
  readChartView,
} from './chart-spec'

const view = (search: string) => readChartView(new URLSearchParams(search))

describe('columnKind', () => {
  it('reads times, numbers and categories through Nullable and LowCardinality', () => {
    expect(columnKind('DateTime')).toBe('time')
    expect(columnKind("DateTime64(3, 'UTC')")).toBe('time')
    expect(columnKind('Nullable(Date32)')).toBe('time')
    expect(columnKind('UInt64')).toBe('number')
    expect(columnKind('Nullable(Float64)')).toBe('number')
    expect(columnKind('Decimal(18, 4)')).toBe('number')
    expect(columnKind('LowCardinality(String)')).toBe('category')
    expect(columnKind("Enum8('a' = 1)")).toBe('category')
    expect(columnKind('UUID')).toBe('category')
  })
})

describe('pickChart', () => {
  const perMinute = chartColumns([
    { name: 'minute', type: 'DateTime' },
    { name: 'requests', type: 'UInt64' },
  ])

  it('draws a line over time for a time and numbers', () => {
    expect(pickChart(perMinute, [])).toEqual({ kind: 'line', x: 'minute', y: ['requests'], split: null })
  })

  it('splits a line by a category, and by a status-like integer column with few values', () => {
    const withPath = chartColumns([
      { name: 'minute', type: 'DateTime' },
      { name: 'path', type: 'String' },
      { name: 'c', type: 'UInt64' },
    ])
    expect(pickChart(withPath, [])).toEqual({ kind: 'line', x: 'minute', y: ['c'], split: 'path' })
    const withStatus = chartColumns([
      { name: 'minute', type: 'DateTime' },
      { name: 'status', type: 'UInt16' },
      { name: 'c', type: 'UInt64' },
    ])
    const rows = [
      ['2026-12-02 06:00:00', '200', '5'],
      ['2026-12-02 06:00:00', '404', '1'],
      ['2026-12-02 06:01:00', '200', '7'],
    ]
    expect(pickChart(withStatus, rows)).toEqual({ kind: 'line', x: 'minute', y: ['c'], split: 'status' })
  })

  it('draws bars for a category and a number, status codes included', () => {
    const byStatus = chartColumns([
      { name: 'status', type: 'UInt16' },
      { name: 'c', type: 'UInt64' },
    ])
    expect(
      pickChart(byStatus, [
        ['200', '9'],
        ['500', '1'],
      ]),
    ).toEqual({ kind: 'bar', x: 'status', y: ['c'], split: null })
    const byPath = chartColumns([
      { name: 'path', type: 'LowCardinality(String)' },
      { name: 'c', type: 'UInt64' },
    ])
    expect(pickChart(byPath, [])?.kind).toBe('bar')
  })

  it('draws a scatter of two measures, and nothing without a number', () => {
    const measures = chartColumns([
      { name: 'bytes', type: 'Float64' },
      { name: 'ms', type: 'Float64' },
    ])
    expect(pickChart(measures, [])).toEqual({ kind: 'scatter', x: 'bytes', y: ['ms'], split: null })
    expect(pickChart(chartColumns([{ name: 'path', type: 'String' }]), [])).toBeNull()
    expect(pickChart(chartColumns([{ name: 'n', type: 'UInt8' }]), [])).toBeNull()
  })

  it("keeps the URL's choice where it fits, and the pick where it does not", () => {
    expect(pickChart(perMinute, [], view('chart=bar'))).toEqual({
      kind: 'bar',
      x: 'minute',
      y: ['requests'],
      split: null,
    })
    // an unknown kind, a missing column, a y that is not a number, a split on an axis: ignored
    expect(pickChart(perMinute, [], view('chart=pie&x=nope&y=minute&split=requests'))).toEqual({
      kind: 'line',
      x: 'minute',
      y: ['requests'],
      split: null,
    })
    const three = chartColumns([
      { name: 't', type: 'DateTime' },
      { name: 'path', type: 'String' },
      { name: 'a', type: 'UInt64' },
      { name: 'b', type: 'Float64' },
    ])
    // split= (empty) is "no split": both y then stay
    expect(pickChart(three, [], view('y=a&y=b&split='))).toEqual({ kind: 'line', x: 't', y: ['a', 'b'], split: null })
    // with a split, one y
    expect(pickChart(three, [], view('y=a&y=b&split=path'))).toEqual({ kind: 'line', x: 't', y: ['a'], split: 'path' })
  })
})

describe('chartData', () => {
  const columns = chartColumns([
    { name: 't', type: 'DateTime' },
    { name: 'status', type: 'String' },
    { name: 'c', type: 'UInt64' },
  ])

  it('makes one series per split value, in time order, leaving out rows without a value', () => {
    const rows = [
      ['2026-12-02 06:01:00', '200', '7'],
      ['2026-12-02 06:00:00', '200', '5'],
      ['2026-12-02 06:00:00', '404', '1'],
      [null, '200', '3'],
      ['2026-12-02 06:02:00', '200', null],
    ]
    const data = chartData(columns, rows, { kind: 'line', x: 't', y: ['c'], split: 'status' }, false)
    expect(data.xScale).toBe('time')
    expect(data.series).toEqual([
      { name: '200', x: [parseTime('2026-12-02 06:00:00'), parseTime('2026-12-02 06:01:00')], y: [5, 7] },
      { name: '404', x: [parseTime('2026-12-02 06:00:00')], y: [1] },
    ])
    expect(data.skippedRows).toBe(2)
    expect(data.title).toBe('c by t, per status')
  })

  it(`keeps the ${MAX_SERIES} largest series and says how many more there were`, () => {
    const rows = Array.from({ length: 14 }, (_, at) => ['2026-12-02 06:00:00', `s${at}`, String(at + 1)])
    const data = chartData(columns, rows, { kind: 'line', x: 't', y: ['c'], split: 'status' }, true)
    expect(data.series).toHaveLength(MAX_SERIES)
    expect(data.hiddenSeries).toBe(4)
    expect(data.series.map((one) => one.name)).not.toContain('s0')
    expect(data.isCapped).toBe(true)
  })
})

describe('the chart view a form carries', () => {
  it('is tab=chart and the chart fields as given, and nothing off the chart tab', () => {
    expect(chartViewFields(new URLSearchParams('tab=chart&chart=bar&x=t&y=a&y=b&split=&sql=SELECT+1'))).toEqual([
      ['tab', 'chart'],
      ['chart', 'bar'],
      ['x', 't'],
      ['y', 'a'],
      ['y', 'b'],
      ['split', ''],
    ])
    expect(chartViewFields(new URLSearchParams('tab=statistics&chart=bar'))).toEqual([])
  })

  it('reads engine times as UTC wall clock', () => {
    expect(parseTime('2026-12-02 06:15:00')).toBe(Date.UTC(2026, 11, 2, 6, 15))
    expect(parseTime('2026-12-02 06:15:00.123456')).toBe(Date.UTC(2026, 11, 2, 6, 15, 0, 123))
    expect(parseTime('2026-12-02')).toBe(Date.UTC(2026, 11, 2))
    expect(parseTime('yesterday')).toBeNaN()
  })
})
