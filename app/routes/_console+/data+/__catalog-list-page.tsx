import { Text } from '~/components/ui/box'
import { HStack } from '~/components/ui/stack'
import { Link, useSearchParams } from '@remix-run/react'
import type { ReactNode } from 'react'
import { Link as ChakraLink } from '~/components/ui/link'
import { ListPage, type ListPaging } from '~/components/data-table/list-page'
import type { Column } from '~/components/data-table/data-table'
import { CreateLink } from '~/components/layout/create-link'
import { DataTabs } from './__data-tabs'
import { CatalogFilter } from './__dictionary-catalog-filter'
import { windowText, type ProjectWindow } from '~/utils/catalog-projects'

type CatalogData<Row> = ListPaging & {
  rows: Row[]
  q: string
  project: string
  projects: { uuid: string; name: string }[]
  projectWindow: ProjectWindow | null
}

/**
 * A Data catalog list (dictionaries, functions, files): ListPage under the Data tabs, filtered by
 * project and name, its create link carrying the chosen project. `plural` names the rows in the
 * pagination and in "No {plural} match this filter.", which links back to `basePath`. A large org
 * is shown a window of projects at a time (decision 088), with links to the next and previous ones.
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
  const projectWindow = data.projectWindow
  const windowTo = (index: number) => {
    const params = new URLSearchParams()
    const pageSize = searchParams.get('pageSize')
    if (pageSize) params.set('pageSize', pageSize)
    if (index > 1) params.set('projects', String(index))
    return `${basePath}${params.size ? `?${params}` : ''}`
  }
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
        <>
          <CatalogFilter
            projects={data.projects}
            project={data.project}
            q={data.q}
            pageSize={searchParams.get('pageSize')}
            nameLabel={nameLabel}
          />
          {projectWindow ? (
            <HStack as="nav" aria-label="Projects" gap="4" wrap="wrap" data-project-window="">
              <Text fontSize="sm">
                Showing the {plural} of {windowText(projectWindow)}. Search by name to look in every project, or choose
                one.
              </Text>
              {projectWindow.index > 1 ? (
                <ChakraLink asChild color="link" fontSize="sm">
                  <Link to={windowTo(projectWindow.index - 1)}>Previous projects</Link>
                </ChakraLink>
              ) : null}
              {projectWindow.index < projectWindow.count ? (
                <ChakraLink asChild color="link" fontSize="sm">
                  <Link to={windowTo(projectWindow.index + 1)}>Next projects</Link>
                </ChakraLink>
              ) : null}
            </HStack>
          ) : null}
        </>
      }
      caption={caption}
      columns={columns}
      rows={data.rows}
      rowKey={rowKey}
      empty={empty}
      noMatch={
        projectWindow && !data.q && !data.project
          ? {
              message: `No ${plural} in ${windowText(projectWindow)}.`,
              clearTo: windowTo(projectWindow.index < projectWindow.count ? projectWindow.index + 1 : 1),
              clearLabel: projectWindow.index < projectWindow.count ? 'Next projects' : 'First projects',
            }
          : { message: `No ${plural} match this filter.`, clearTo: basePath }
      }
      isFiltered={Boolean(data.q || data.project || projectWindow)}
      paging={data}
      noun={plural}
    >
      <DataTabs />
    </ListPage>
  )
}
