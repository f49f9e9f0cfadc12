import Plotly from 'plotly.js-basic-dist'
import { useEffect, useRef } from 'react'
import { useIsDark } from '~/components/layout/use-color-mode'
import { CHART_COLORS, CHART_KIND_LABELS, formatTime, type ChartData } from '~/utils/chart-spec'

/** A result's chart drawn by Plotly (browser only: Plotly needs the DOM); the same series as the server's SVG. */
export default function QueryChartPlot({ data }: { data: ChartData }) {
  const ref = useRef<HTMLDivElement>(null)
  const isDark = useIsDark()

  useEffect(() => {
    const element = ref.current
    if (!element) return
    const { spec } = data
    const traces = data.series.map((series) => ({
      type: spec.kind === 'bar' ? 'bar' : 'scatter',
      mode: spec.kind === 'scatter' ? 'markers' : spec.kind === 'line' && series.x.length < 2 ? 'markers' : 'lines',
      name: series.name || '(empty)',
      // times as the engine wrote them (UTC wall clock): Plotly shows them as written
      x: data.xScale === 'time' ? series.x.map((x) => formatTime(x as number)) : series.x,
      y: series.y,
    }))
    const grid = isDark ? '#3f3f46' : '#e4e4e7'
    void Plotly.react(
      element,
      traces,
      {
        height: 340,
        margin: { l: 64, r: 16, t: 16, b: 56 },
        showlegend: true,
        legend: { orientation: 'h', y: -0.22 },
        barmode: 'group',
        xaxis: {
          type: data.xScale === 'time' ? 'date' : data.xScale === 'number' ? 'linear' : 'category',
          title: { text: spec.x },
          gridcolor: grid,
          automargin: true,
        },
        yaxis: {
          title: { text: spec.y.join(', ') },
          gridcolor: grid,
          rangemode: spec.kind === 'bar' ? 'tozero' : 'normal',
        },
        paper_bgcolor: 'rgba(0,0,0,0)',
        plot_bgcolor: 'rgba(0,0,0,0)',
        font: { size: 11, color: isDark ? '#e4e4e7' : '#27272a' },
        colorway: isDark ? CHART_COLORS.dark : CHART_COLORS.light,
      },
      { responsive: true, displaylogo: false, modeBarButtonsToRemove: ['select2d', 'lasso2d'] },
    )
  }, [data, isDark])

  useEffect(() => {
    const element = ref.current
    return () => {
      if (element) Plotly.purge(element)
    }
  }, [])

  return (
    <div
      ref={ref}
      role="figure"
      aria-label={`${CHART_KIND_LABELS[data.spec.kind]} chart: ${data.title}`}
      data-testid="chart-plot"
      data-chart-kind={data.spec.kind}
      style={{ width: '100%', minHeight: 340 }}
    />
  )
}
