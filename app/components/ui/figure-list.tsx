import { SimpleGrid, type SimpleGridProps } from '@chakra-ui/react'
import type { ReactNode } from 'react'

/** A figure: its label (unique in the list) and its value. */
export type Figure = [label: string, value: ReactNode]

// Static rule objects: Chakra resolves each once and reuses the class (its css is memoised by value).
const BASE_CSS = {
  '& > div': { minWidth: '0' },
  '& dt': { fontSize: 'xs', color: 'fg.muted' },
  '& dd': { fontWeight: 'semibold' },
}
const LARGE_CSS = { ...BASE_CSS, '& dd': { fontWeight: 'semibold', fontSize: 'lg' } }
const WRAPPING_CSS = { ...BASE_CSS, '& dd': { fontWeight: 'semibold', overflowWrap: 'anywhere' } }

/**
 * Labelled figures as a description list in a grid: a muted small label over each value in
 * semibold (`size="lg"`: larger values; `wrap`: long values break anywhere). Only the list is a
 * Chakra element; each figure is a plain `<div><dt><dd>` styled from the list. A styled Chakra element
 * costs about 45 µs of a server render, and a table page showed some 40 of them in its figures
 * (issue 52).
 */
export function FigureList({
  figures,
  size,
  wrap,
  ...grid
}: { figures: Figure[]; size?: 'lg'; wrap?: boolean } & Omit<SimpleGridProps, 'as' | 'children' | 'css'>) {
  return (
    <SimpleGrid as="dl" css={size === 'lg' ? LARGE_CSS : wrap ? WRAPPING_CSS : BASE_CSS} {...grid}>
      {figures.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </SimpleGrid>
  )
}
