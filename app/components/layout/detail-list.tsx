import { Box } from '~/components/ui/box'
import { defineCss } from '~/components/ui/plain'
import { Fragment, type ReactNode } from 'react'

// Plain dt/dd styled once on the list: a Chakra component per entry costs a style computation each.
const entriesCss = {
  '& dt': { color: 'fg.muted' },
  '& dd': { m: '0', minW: '0', overflowWrap: 'anywhere' },
  '& dd code': { fontFamily: 'mono', fontSize: 'xs', whiteSpace: 'pre-wrap' },
} as const

/** The list's style for each label width, made once (decision 112: a plain element on the server). */
const listCss = new Map<string, ReturnType<typeof defineCss>>()
function listCssFor(labelWidth: string) {
  let css = listCss.get(labelWidth)
  if (!css) {
    css = defineCss({
      ...entriesCss,
      display: 'grid',
      gridTemplateColumns: { base: 'minmax(0, 1fr)', md: `${labelWidth} minmax(0, 1fr)` },
      columnGap: '4',
      rowGap: '1.5',
      fontSize: 'sm',
      m: '0',
    })
    listCss.set(labelWidth, css)
  }
  return css
}

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
    <Box as="dl" aria-label={label} css={listCssFor(labelWidth)}>
      {entries.map(([term, value]) => (
        <Fragment key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
    </Box>
  )
}
