import { chakra } from '@chakra-ui/react'
import { Box } from '~/components/ui/box'
import { useId } from 'react'
import { defineCss } from '~/components/ui/plain'

const WIDTH = 300
const HEIGHT = 48

const figureCss = defineCss({
  m: '0',
  color: 'blue.600',
  _dark: { color: 'blue.300' },
  '& svg': { display: 'block', width: '100%', height: `${HEIGHT}px`, overflow: 'visible' },
  '& [data-base]': { stroke: 'border.emphasized' },
  '& figcaption': { display: 'flex', justifyContent: 'space-between', gap: '2', fontSize: 'xs', color: 'fg.muted' },
} as const)

/**
 * A small bar chart rendered on the server as an SVG (no script, no chart library): one bar per
 * value, scaled to the largest, a base line, a `<title>` per bar (its label and value) and a text
 * alternative naming the total and the peak. `labels[i]` names bar i ("06:05 UTC").
 */
export function SparkBars({
  title,
  values,
  labels,
  unit,
  startLabel,
  endLabel,
}: {
  title: string
  values: number[]
  labels: string[]
  unit: string
  startLabel: string
  endLabel: string
}) {
  const id = useId()
  const max = Math.max(0, ...values)
  const total = values.reduce((sum, value) => sum + value, 0)
  const peakIndex = values.indexOf(max)
  const step = values.length ? WIDTH / values.length : WIDTH
  const gap = step > 3 ? 1 : 0
  const summary =
    total === 0
      ? `No ${unit} in any of the ${values.length} bars.`
      : `${total.toLocaleString('en-US')} ${unit} in all; the most, ${max.toLocaleString('en-US')}, at ${labels[peakIndex] ?? ''}.`
  return (
    <Box as="figure" css={figureCss}>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        {values.map((value, index) => {
          if (value <= 0 || max === 0) return null
          const height = Math.max(1.5, (value / max) * (HEIGHT - 2))
          return (
            <rect
              key={index}
              x={(index * step).toFixed(2)}
              y={(HEIGHT - height).toFixed(2)}
              width={Math.max(0.5, step - gap).toFixed(2)}
              height={height.toFixed(2)}
              fill="currentColor"
            >
              <title>{`${labels[index] ?? ''}: ${value.toLocaleString('en-US')} ${unit}`}</title>
            </rect>
          )
        })}
        <line data-base="" x1="0" x2={WIDTH} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} strokeWidth="1" />
      </svg>
      <chakra.figcaption>
        <span>{startLabel}</span>
        <span>{endLabel}</span>
      </chakra.figcaption>
    </Box>
  )
}
