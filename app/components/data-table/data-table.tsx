import { Box } from '~/components/ui/box'
import type { ReactNode } from 'react'

export type Column<Row> = {
  key: string
  header: ReactNode
  cell: (row: Row) => ReactNode
  /** Row header cell (`<th scope="row">`) for the column that names the row. */
  isRowHeader?: boolean
  width?: string
}

/**
 * The table's look, set once on its wrapper: cells are plain elements. Styling every cell with a
 * Chakra component costs a style computation per element on the server, which made a 100-row page
 * render several times slower than the same page with plain cells (bench/console.ts).
 * Cells may use `<a>` (links), `[data-badge]` and `[data-muted]` spans.
 */
export const dataTableCss = {
  '& table': { width: '100%', borderCollapse: 'collapse', fontSize: 'sm' },
  '& caption': { srOnly: true },
  '& th, & td': {
    textAlign: 'start',
    px: '3',
    py: '2',
    borderBottomWidth: '1px',
    borderColor: 'border',
    verticalAlign: 'middle',
  },
  '& thead th': { fontWeight: 'medium', color: 'fg.muted', bg: 'bg.muted', fontSize: 'xs' },
  '& tbody th': { fontWeight: 'medium' },
  '& tbody tr:last-of-type > *': { borderBottomWidth: '0' },
  '& tbody tr:hover': { bg: 'bg.subtle' },
  '& tbody tr[data-selected]': { bg: 'blue.subtle', boxShadow: 'inset 3px 0 0 var(--chakra-colors-blue-500)' },
  // a table wider than its card scrolls sideways with its first column (what names the row) kept in view
  '& tr > :first-child': { position: 'sticky', insetInlineStart: 0, zIndex: 1, bg: 'bg' },
  '& thead tr > :first-child': { bg: 'bg.muted' },
  '& tbody tr:hover > :first-child': { bg: 'bg.subtle' },
  '& tbody tr[data-selected] > :first-child': {
    bg: 'blue.subtle',
    boxShadow: 'inset 3px 0 0 var(--chakra-colors-blue-500)',
  },
  '& a': {
    color: 'link',
    textDecoration: 'none',
    _hover: { textDecoration: 'underline' },
    _focusVisible: { outline: '2px solid', outlineColor: 'blue.500' },
  },
  // A link among other words in its cell ("Roles · Delete…") is underlined: in the dark theme the
  // link colour is too close to the text's to tell them apart by colour alone (axe link-in-text-block).
  '& td a:not(:only-child), & td [data-muted] a': { textDecoration: 'underline', textUnderlineOffset: '2px' },
  '& [data-muted]': { color: 'fg.muted', fontWeight: 'normal' },
  '& [data-badge]': {
    display: 'inline-block',
    px: '1.5',
    rounded: 'sm',
    fontSize: 'xs',
    fontWeight: 'medium',
    bg: 'gray.subtle',
    color: 'gray.fg',
  },
  '& [data-badge=summary]': { bg: 'purple.subtle', color: 'purple.fg' },
} as const

/**
 * A server-rendered table of `rows`; `empty` shows instead when there are none.
 * `caption` names the table for assistive technology (visually hidden). The row whose key is
 * `selectedKey` is marked `data-selected` and `aria-current`; `css` adds rules for what the
 * cells hold (badges, bars, row buttons), after the table's own.
 */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  caption,
  empty,
  selectedKey,
  css,
}: {
  columns: Column<Row>[]
  rows: Row[]
  rowKey: (row: Row) => string
  caption: string
  empty: ReactNode
  selectedKey?: string | null
  css?: Record<string, unknown>
}) {
  if (!rows.length) {
    return (
      <Box borderWidth="1px" rounded="md" bg="bg" p="8" textAlign="center" color="fg.muted" role="status">
        {empty}
      </Box>
    )
  }
  return (
    // a wide table scrolls sideways inside its card: the card takes keyboard focus so arrows scroll it
    <Box
      borderWidth="1px"
      rounded="md"
      bg="bg"
      overflowX="auto"
      tabIndex={0}
      role="group"
      aria-label={caption}
      css={css ? { ...dataTableCss, ...css } : dataTableCss}
    >
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.key} scope="col" style={column.width ? { width: column.width } : undefined}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const key = rowKey(row)
            const isSelected = selectedKey != null && key === selectedKey
            return (
              <tr key={key} data-selected={isSelected ? '' : undefined} aria-current={isSelected ? 'true' : undefined}>
                {columns.map((column) =>
                  column.isRowHeader ? (
                    <th scope="row" key={column.key}>
                      {column.cell(row)}
                    </th>
                  ) : (
                    <td key={column.key}>{column.cell(row)}</td>
                  ),
                )}
              </tr>
            )
          })}
        </tbody>
      </table>
    </Box>
  )
}
