import { useSearchParams } from '@remix-run/react'
import type { ReactNode } from 'react'
import { ListPage, type ListPaging } from '~/components/data-table/list-page'
import type { Column } from '~/components/data-table/data-table'
import { CreateLink } from '~/components/layout/create-link'
import { DataTabs } from './__data-tabs'
import { CatalogFilter } from './__dictionary-catalog-filter'

type CatalogData<Row> = ListPaging & {
  rows: Row[]
  q: string
  project: string
  projects: { uuid: string; name: string }[]
}

/**
 * A Data catalog list (dictionaries, functions, files): ListPage under the Data tabs, filtered by
 * project and name, its create link carrying the chosen project. `plural` names the rows in the
 * pagination and in "No {plural} match this filter.", which links back to `basePath`.
 */
export function CatalogListPage<Row>({
  data,
  title,
  description,
  create,
  nameLabel,
  plural,
  basePath,
  caption,
  columns,
  rowKey,
  empty,
}: {
  data: CatalogData<Row>
  title: string
  description: ReactNode
  create: { to: string; label: string }
  nameLabel: string
  plural: string
  basePath: string
  caption: string
  columns: Column<Row>[]
  rowKey: (row: Row) => string
  empty: { message: string; action: { to: string; label: string } }
}) {
  const [searchParams] = useSearchParams()
  return (
    <ListPage
      title={title}
      description={description}
      actions={
        <CreateLink to={`${create.to}${data.project ? `?project=${data.project}` : ''}`} colorPalette="blue">
          {create.label}
        </CreateLink>
      }
      filter={
        <CatalogFilter
          projects={data.projects}
          project={data.project}
          q={data.q}
          pageSize={searchParams.get('pageSize')}
          nameLabel={nameLabel}
        />
      }
      caption={caption}
      columns={columns}
      rows={data.rows}
      rowKey={rowKey}
      empty={empty}
      noMatch={{ message: `No ${plural} match this filter.`, clearTo: basePath }}
      isFiltered={Boolean(data.q || data.project)}
      paging={data}
      noun={plural}
    >
      <DataTabs />
    </ListPage>
  )
}
