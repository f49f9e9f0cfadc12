import Plotly from 'plotly.js-basic-dist'
import { useEffect, useRef } from 'react'
import { useIsDark } from '~/components/layout/use-color-mode'
import type { SeriesPanelData } from './__series'

/** A stacked bar chart of a panel's series (browser only: Plotly needs the DOM). */
export default function SeriesChart({ panel }: { panel: SeriesPanelData }) {
  const ref = useRef<HTMLDivElement>(null)
  const isDark = useIsDark()

  useEffect(() => {
    const element = ref.current
    if (!element) return
    // Times as UTC wall-clock strings: Plotly shows them as written, so the axis reads UTC.
    const x = panel.times.map((t) => new Date(t).toISOString().slice(0, 19).replace('T', ' '))
    void Plotly.react(
      element,
      panel.series.map((series) => ({
        type: 'bar',
        name: series.name,
        x,
        y: series.values,
        hovertemplate: `%{y} ${panel.unit}<extra>${series.name}</extra>`,
      })),
      {
        barmode: 'stack',
        height: 260,
        margin: { l: 56, r: 16, t: 8, b: 48 },
        showlegend: true,
        legend: { orientation: 'h', y: -0.25 },
        xaxis: { type: 'date', title: { text: 'UTC' }, gridcolor: isDark ? '#3f3f46' : '#e4e4e7' },
        yaxis: { rangemode: 'tozero', title: { text: panel.unit }, gridcolor: isDark ? '#3f3f46' : '#e4e4e7' },
        paper_bgcolor: 'rgba(0,0,0,0)',
        plot_bgcolor: 'rgba(0,0,0,0)',
        // the page's text and grid colours in either theme (Plotly draws its own)
        font: { size: 11, color: isDark ? '#e4e4e7' : '#27272a' },
        colorway: isDark ? ['#60a5fa', '#f59e0b', '#34d399', '#f472b6', '#a78bfa', '#f87171'] : undefined,
      },
      { responsive: true, displaylogo: false, modeBarButtonsToRemove: ['select2d', 'lasso2d'] },
    )
  }, [panel, isDark])

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
      aria-label={`Chart: ${panel.title}`}
      data-chart={panel.id}
      style={{ width: '100%', minHeight: 260 }}
    />
  )
}
