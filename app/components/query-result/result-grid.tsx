import { Box, Text } from '~/components/ui/box'
import { useEffect, useMemo, useRef, useState, type CSSProperties, type RefObject } from 'react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { isNumericType } from '~/utils/sql'
import { cellsOf, type Cell } from '~/utils/result-cells'
import { zoneLabelledType } from '~/utils/result-zone'

export type ResultColumn = { name: string; type: string }

/** Pixels per row: cells are one line (`white-space: pre`, clipped), so every row is this tall. */
const ROW_HEIGHT = 29

/**
 * A phone (below md) sizes the grid from the `--narrow` widths (columns from their values, a smaller
 * type), a wider screen from the `--wide` ones: each `<col>` and the table carry both (issue 54: at
 * 390 px the timestamp column alone filled the grid). Sticky row numbers keep a row in view sideways.
 */
const resultCss = {
  maxH: '70vh',
  overflow: 'auto',
  borderWidth: '1px',
  rounded: 'md',
  bg: 'bg',
  '& table': {
    borderCollapse: 'collapse',
    fontSize: { base: 'xs', md: 'sm' },
    fontFamily: 'mono',
    tableLayout: 'fixed',
    minW: 'full',
    width: { base: 'var(--narrow)', md: 'var(--wide)' },
  },
  '& col': { width: { base: 'var(--narrow)', md: 'var(--wide)' } },
  '& tr > :first-child': { position: 'sticky', left: 0, bg: 'bg', zIndex: 1 },
  '& thead tr > :first-child': { bg: 'bg.muted', zIndex: 2 },
  '& caption': { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)' },
  '& th, & td': {
    textAlign: 'start',
    px: '2',
    height: `${ROW_HEIGHT}px`,
    borderBottomWidth: '1px',
    borderColor: 'border',
    whiteSpace: 'pre',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    verticalAlign: 'middle',
  },
  '& thead th': {
    position: 'sticky',
    top: 0,
    height: 'auto',
    py: '1',
    bg: 'bg.muted',
    fontFamily: 'body',
    fontWeight: 'semibold',
    zIndex: 1,
  },
  '& thead small': {
    display: 'block',
    fontWeight: 'normal',
    color: 'fg.muted',
    fontFamily: 'mono',
    fontSize: 'xs',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
  },
  '& tbody th': { color: 'fg.muted', fontWeight: 'normal', textAlign: 'end' },
  '& tr[data-spacer] > td': { p: 0, borderBottomWidth: 0 },
  '& [data-null]': { color: 'fg.subtle', fontStyle: 'italic' },
  // Numbers line up on their last digit.
  '& [data-numeric]': { textAlign: 'end', fontVariantNumeric: 'tabular-nums' },
} as const

/** Rows rendered beyond the view on each side, so a fast scroll does not show empty space. */
const OVERSCAN = 20

/** The view's height before it is measured (the grid is `70vh` at most). */
const INITIAL_VIEW_HEIGHT = 600

/**
 * The rows in view of `scrollRef` (plus OVERSCAN on each side) while `isActive`, as `[first, end)`:
 * every row is ROW_HEIGHT tall, so the window follows from the scroll position and the view's
 * height alone. Replaces @tanstack/react-virtual (decision 075: 14 KB gzipped of the result page's
 * first load, for rows that are never measured).
 */
function useRowWindow(scrollRef: RefObject<HTMLDivElement>, count: number, isActive: boolean) {
  const [view, setView] = useState({ top: 0, height: INITIAL_VIEW_HEIGHT })
  useEffect(() => {
    const element = scrollRef.current
    if (!isActive || !element) return
    const read = () =>
      setView((current) =>
        current.top === element.scrollTop && current.height === element.clientHeight
          ? current
          : { top: element.scrollTop, height: element.clientHeight },
      )
    read()
    element.addEventListener('scroll', read, { passive: true })
    const observer = new ResizeObserver(read)
    observer.observe(element)
    return () => {
      element.removeEventListener('scroll', read)
      observer.disconnect()
    }
  }, [scrollRef, isActive])
  const first = Math.min(count, Math.max(0, Math.floor(view.top / ROW_HEIGHT) - OVERSCAN))
  const end = Math.min(count, Math.ceil((view.top + view.height) / ROW_HEIGHT) + OVERSCAN)
  return { first, end: Math.max(first, end) }
}

/**
 * Column widths in `ch` from the names, types and the first rows, so the fixed table layout does
 * not shift as other rows scroll in.
 */
function columnWidths(columns: ResultColumn[], rows: Cell[][]): { wide: number; narrow: number }[] {
  return columns.map((column, index) => {
    let values = column.name.length
    for (let row = 0; row < Math.min(rows.length, 200); row++)
      values = Math.max(values, (rows[row]![index] ?? 'NULL').length)
    const widest = Math.max(values, zoneLabelledType(column.type).length)
    // a phone: the values (the type line is clipped, its title says it), at most a timestamp's 24
    return { wide: Math.min(48, Math.max(6, widest)) + 2, narrow: Math.min(24, Math.max(4, values)) + 1 }
  })
}

/**
 * Whether the phone's grid is wider than a 390 px screen holds: about 48ch of its 12 px type, a
 * cell's padding (1rem) being about 2ch. Read from the widths, so the page says it without scripts.
 */
function isWiderThanPhone(widths: { narrow: number }[], numberCh: number): boolean {
  return widths.reduce((sum, width) => sum + width.narrow + 2, numberCh + 2) > 48
}

/** A width in `ch` of the grid's text and `rem` of the cells' padding, as a CSS length. */
const chWidth = (ch: number, cells = 1) => `calc(${ch}ch + ${cells}rem)`

/** The two widths of a `<col>` or the table (`--wide`, `--narrow`: resultCss picks one by the screen). */
const widthVars = (wide: string, narrow: string) => ({ '--wide': wide, '--narrow': narrow }) as CSSProperties

/**
 * The result rows as a table. Server HTML and a page without scripts show the loaded page (rows
 * offset + 1 onwards); with scripts the grid streams the rest of the result from
 * `/resources/query-rows` and renders only the rows in view (virtualised), so 10,000 rows scroll
 * as smoothly as 10.
 */
export function ResultGrid({
  columns,
  rows: pageRows,
  offset,
  rowCount,
  rowsUrl,
  onLoaded,
}: {
  columns: ResultColumn[]
  rows: Cell[][]
  offset: number
  rowCount: number
  /** Where the other rows stream from (the same SQL and options), without `from`. */
  rowsUrl: string
  onLoaded?: (count: number) => void
}) {
  const isHydrated = useHydrated()
  const [loaded, setLoaded] = useState<{ rows: Cell[][]; offset: number }>({ rows: pageRows, offset })
  const scrollRef = useRef<HTMLDivElement>(null)
  const numeric = useMemo(() => columns.map((column) => isNumericType(column.type)), [columns])
  const widths = useMemo(() => columnWidths(columns, pageRows), [columns, pageRows])

  useEffect(() => {
    setLoaded({ rows: pageRows, offset })
    if (offset === 0 && pageRows.length >= rowCount) return
    // From the page's end when it is the first page; otherwise the whole result, shown once complete.
    const from = offset === 0 ? pageRows.length : 0
    const controller = new AbortController()
    void streamRows(
      `${rowsUrl}&from=${from}`,
      controller.signal,
      (batch, isDone) => {
        setLoaded((current) => {
          if (from === 0) return isDone ? { rows: batch, offset: 0 } : current
          return { rows: current.rows.concat(batch), offset: 0 }
        })
      },
      from === 0,
    ).catch(() => {
      // The page's rows stay; a failed stream is shown by the count below them.
    })
    return () => controller.abort()
  }, [pageRows, offset, rowCount, rowsUrl])

  useEffect(() => {
    onLoaded?.(loaded.offset === 0 ? loaded.rows.length : pageRows.length)
  }, [loaded, onLoaded, pageRows.length])

  const rows = loaded.rows
  const isVirtual = isHydrated
  const rowWindow = useRowWindow(scrollRef, rows.length, isVirtual)
  const visible = isVirtual
    ? Array.from({ length: rowWindow.end - rowWindow.first }, (_, index) => rowWindow.first + index)
    : rows.map((_, index) => index)
  const paddingTop = isVirtual ? rowWindow.first * ROW_HEIGHT : 0
  const paddingBottom = isVirtual ? (rows.length - rowWindow.end) * ROW_HEIGHT : 0
  const numberCh = String(rowCount).length + 2
  const total = (key: 'wide' | 'narrow') =>
    chWidth(widths.reduce((sum, width) => sum + width[key], 0) + numberCh, columns.length + 1)

  return (
    <>
      {isWiderThanPhone(widths, numberCh) ? (
        // a phone's grid is narrower than its columns: say so (the scrollbar is often hidden there)
        <Text hideFrom="md" fontSize="xs" color="fg.muted" mb="1">
          {columns.length} columns: scroll the grid sideways to see them all.
        </Text>
      ) : null}
      <Box ref={scrollRef} css={resultCss} tabIndex={0} data-testid="result-grid">
        <table aria-rowcount={rowCount + 1} style={widthVars(total('wide'), total('narrow'))}>
          <caption>Query results</caption>
          <colgroup>
            <col style={widthVars(chWidth(numberCh), chWidth(numberCh))} />
            {widths.map((width, index) => (
              <col key={index} style={widthVars(chWidth(width.wide), chWidth(width.narrow))} />
            ))}
          </colgroup>
          <thead>
            <tr aria-rowindex={1}>
              <th scope="col">#</th>
              {columns.map((column, index) => (
                <th
                  key={index}
                  scope="col"
                  data-numeric={numeric[index] ? '' : undefined}
                  title={`${column.name} ${zoneLabelledType(column.type)}`}
                >
                  {column.name}
                  <small>{zoneLabelledType(column.type)}</small>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {paddingTop > 0 ? (
              <tr data-spacer="" aria-hidden="true">
                <td colSpan={columns.length + 1} style={{ height: paddingTop }} />
              </tr>
            ) : null}
            {visible.map((index) => {
              const row = rows[index]!
              const number = loaded.offset + index + 1
              return (
                <tr key={number} aria-rowindex={number + 1}>
                  <th scope="row">{number}</th>
                  {row.map((cell, cellIndex) =>
                    cell === null ? (
                      <td key={cellIndex} data-null="">
                        NULL
                      </td>
                    ) : (
                      <td key={cellIndex} data-numeric={numeric[cellIndex] ? '' : undefined}>
                        {cell}
                      </td>
                    ),
                  )}
                </tr>
              )
            })}
            {paddingBottom > 0 ? (
              <tr data-spacer="" aria-hidden="true">
                <td colSpan={columns.length + 1} style={{ height: paddingBottom }} />
              </tr>
            ) : null}
          </tbody>
        </table>
      </Box>
    </>
  )
}

/**
 * Reads a line-per-row answer as it arrives and hands over the rows in batches (every chunk), or
 * all at once at the end when `isWhole`. Rejects when the answer fails.
 */
async function streamRows(
  url: string,
  signal: AbortSignal,
  onRows: (rows: Cell[][], isDone: boolean) => void,
  isWhole: boolean,
) {
  const response = await fetch(url, { signal, headers: { Accept: 'application/x-ndjson' } })
  if (!response.ok || !response.body) throw new Error(await response.text())
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let pending = ''
  let all: Cell[][] = []
  const parse = (text: string): Cell[][] => cellsOf(text.split('\n').filter(Boolean))
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    pending += decoder.decode(value, { stream: true })
    const end = pending.lastIndexOf('\n')
    if (end < 0) continue
    const batch = parse(pending.slice(0, end))
    pending = pending.slice(end + 1)
    if (isWhole) all = all.concat(batch)
    else onRows(batch, false)
  }
  const last = parse(pending + decoder.decode())
  if (isWhole) onRows(all.concat(last), true)
  else onRows(last, true)
}
