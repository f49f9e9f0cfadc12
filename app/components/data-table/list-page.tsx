import { Stack } from '~/components/ui/stack'
import { useSearchParams } from '@remix-run/react'
import type { ReactNode } from 'react'
import { PageHeader } from '~/components/layout/page-header'
import { DataTable, type Column } from './data-table'
import { EmptyState } from './empty-state'
import { FilterForm } from './filter-form'
import { Pagination } from './pagination'

/** Where a list loader's page is (`listPage` in paging.ts); without it the list has no pagination. */
export type ListPaging = { page: number; pageCount: number | null; pageSize: number; total: number | null }

type EmptyProps = Parameters<typeof EmptyState>[0]

/**
 * One list page (issue 34): the page's heading, what stands between it and the list (`children`:
 * tabs, a confirmation, an alert), the filter, the table, `afterTable`, the pagination and
 * `footer`, in a Stack. `filter` as a string is the label of the name filter (`?q=`, keeping the
 * page size); any other node is the route's own GET form. `empty` is the empty state's sentence and
 * link (or a node of the route's own); `noMatch` replaces it while `isFiltered` (default: `q` is
 * set). Pagination shows when `paging` is given and the list is not empty. Works without scripts.
 */
export function ListPage<Row>({
  title,
  level,
  description,
  actions,
  header,
  children,
  filter,
  q = '',
  rows,
  paging,
  noun,
  caption,
  columns,
  rowKey,
  selectedKey,
  css,
  empty,
  noMatch,
  isFiltered = Boolean(q),
  afterTable,
  footer,
}: {
  title?: ReactNode
  level?: 1 | 2 | 3
  description?: ReactNode
  actions?: ReactNode
  /** The page's own heading block, in place of title/description/actions. */
  header?: ReactNode
  children?: ReactNode
  filter?: string | ReactNode
  q?: string
  rows: Row[]
  paging?: ListPaging
  /** What the pagination counts ("Showing 1–25 of 40 rows"). */
  noun?: string
  caption: string
  columns: Column<Row>[]
  rowKey: (row: Row) => string
  selectedKey?: string | null
  css?: Record<string, unknown>
  empty: Omit<EmptyProps, 'filter'> | { node: ReactNode }
  noMatch?: EmptyProps['filter']
  isFiltered?: boolean
  afterTable?: ReactNode
  footer?: ReactNode
}) {
  const [searchParams] = useSearchParams()
  return (
    <Stack gap="4">
      {header ?? <PageHeader level={level} title={title} description={description} mb="0" actions={actions} />}
      {children}
      {typeof filter === 'string' ? (
        <FilterForm label={filter} value={q} keep={{ pageSize: searchParams.get('pageSize') ?? undefined }} />
      ) : (
        filter
      )}
      <DataTable
        caption={caption}
        columns={columns}
        rows={rows}
        rowKey={rowKey}
        selectedKey={selectedKey}
        css={css}
        empty={'node' in empty ? empty.node : <EmptyState {...empty} filter={isFiltered ? noMatch : null} />}
      />
      {afterTable}
      {paging ? (
        <Pagination
          page={paging.page}
          pageCount={paging.pageCount}
          pageSize={paging.pageSize}
          total={paging.total}
          searchParams={searchParams}
          noun={noun}
        />
      ) : null}
      {footer}
    </Stack>
  )
}
