import { chakra } from '@chakra-ui/react'
import { Fragment, type ReactNode } from 'react'

// Plain dt/dd styled once on the list: a Chakra component per entry costs a style computation each.
const entriesCss = {
  '& dt': { color: 'fg.muted' },
  '& dd': { m: '0', minW: '0', overflowWrap: 'anywhere' },
  '& dd code': { fontFamily: 'mono', fontSize: 'xs', whiteSpace: 'pre-wrap' },
} as const

/** One entry: its label and its value (text, or an element such as a badge, a `<code>` or a time). */
export type DetailEntry = [label: string, value: ReactNode]

/**
 * Label/value pairs of one item (a `<dl>`): two columns from medium screens up, stacked below.
 * `label` names the list for assistive technology when no heading does.
 */
export function DetailList({
  entries,
  label,
  labelWidth = '12rem',
}: {
  entries: DetailEntry[]
  label?: string
  labelWidth?: string
}) {
  return (
    <chakra.dl
      aria-label={label}
      display="grid"
      gridTemplateColumns={{ base: 'minmax(0, 1fr)', md: `${labelWidth} minmax(0, 1fr)` }}
      columnGap="4"
      rowGap="1.5"
      fontSize="sm"
      m="0"
      css={entriesCss}
    >
      {entries.map(([term, value]) => (
        <Fragment key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
    </chakra.dl>
  )
}
