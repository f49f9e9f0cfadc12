import { Text } from '~/components/ui/box'
import { lazy, Suspense } from 'react'
import type { TableDataPart } from './__table-data-values'
import type { TableIngest } from './__table-ingest'

// Its own chunk, outside the page's first load (decision 101): the server renders it in full (the
// render waits for every boundary), so the HTML holds the rows with or without scripts; hydrating,
// React keeps that HTML in place until the chunk has come.
const TableDataViews = lazy(() => import('./__table-data-views'))

/** The table page's "Is data arriving?" and "Data" parts (issue 51), rendered on the server. */
export function TableDataPanels(props: { data: TableDataPart; ingest: TableIngest; isSummary?: boolean }) {
  return (
    <Suspense fallback={<Text color="fg.muted">Loading the table&apos;s data…</Text>}>
      <TableDataViews {...props} />
    </Suspense>
  )
}
