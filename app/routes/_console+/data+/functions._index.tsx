import { Stack } from '@chakra-ui/react'
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData, useSearchParams } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { listProjectsWithFunctions } from '~/api/functions.server'
import { loadFromCluster } from '~/api/policies.server'
import { DataTable, type Column } from '~/components/data-table/data-table'
import { EmptyState } from '~/components/data-table/empty-state'
import { Pagination } from '~/components/data-table/pagination'
import { listPage, parsePaging } from '~/components/data-table/paging'
import { PageHeader } from '~/components/layout/page-header'
import type { RouteHandle } from '~/utils/handle'
import { DataTabs } from './__data-tabs'
import { CatalogFilter, projectFilterOf } from './__dictionary-catalog-filter'
import { functionUrl } from './__function-url'
import { CreateLink } from '~/components/layout/create-link'
import { routeErrorBoundary } from '~/components/layout/route-error'

export const handle: RouteHandle = { docsTopic: 'function' }

type FunctionRow = {
  uuid: string
  name: string
  sql: string
  description: string
  projectId: string
  projectName: string
}

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const paging = parsePaging(url)
  const project = projectFilterOf(url)
  const entries = await loadFromCluster(() => listProjectsWithFunctions(api))
  const needle = paging.q.toLowerCase()
  const rows: FunctionRow[] = entries
    .filter((entry) => !project || entry.project.uuid === project)
    .flatMap(({ project, functions }) =>
      functions.map((fn) => ({
        uuid: fn.uuid ?? fn.name,
        name: fn.name,
        sql: fn.sql ?? '',
        description: fn.description ?? '',
        projectId: project.uuid,
        projectName: project.name,
      })),
    )
    .filter((row) => !needle || row.name.toLowerCase().includes(needle))
  return {
    ...listPage(rows, paging),
    project,
    projects: entries.map(({ project }) => ({ uuid: project.uuid, name: project.name })),
    functionCount: entries.reduce((sum, entry) => sum + entry.functions.length, 0),
  }
}

const columns: Column<FunctionRow>[] = [
  {
    key: 'name',
    header: 'Function',
    isRowHeader: true,
    cell: (row) => <Link to={functionUrl(row.projectId, row.uuid)}>{row.name}</Link>,
  },
  { key: 'project', header: 'Project', cell: (row) => row.projectName },
  { key: 'sql', header: 'SQL expression', cell: (row) => <code>{row.sql}</code> },
  { key: 'description', header: 'Description', cell: (row) => row.description || '—' },
]

export default function DataFunctionsRoute() {
  const data = useLoaderData<typeof loader>()
  const [searchParams] = useSearchParams()
  const isFiltered = Boolean(data.q || data.project)
  return (
    <Stack gap="4">
      <PageHeader
        title="Functions"
        description={`${data.functionCount} custom SQL ${data.functionCount === 1 ? 'function' : 'functions'} in ${data.projects.length} ${data.projects.length === 1 ? 'project' : 'projects'}`}
        mb="0"
        actions={
          <CreateLink
            to={`/data/functions/new-custom-function${data.project ? `?project=${data.project}` : ''}`}
            colorPalette="blue"
          >
            New function
          </CreateLink>
        }
      />
      <DataTabs />
      <CatalogFilter
        projects={data.projects}
        project={data.project}
        q={data.q}
        pageSize={searchParams.get('pageSize')}
        nameLabel="Function name"
      />
      <DataTable
        caption="Custom SQL functions"
        columns={columns}
        rows={data.rows}
        rowKey={(row) => `${row.projectId}/${row.uuid}`}
        empty={
          <EmptyState
            message="No custom functions yet."
            action={{ to: '/data/functions/new-custom-function', label: 'Create your first function' }}
            filter={isFiltered ? { message: 'No functions match this filter.', clearTo: '/data/functions' } : null}
          />
        }
      />
      <Pagination
        page={data.page}
        pageCount={data.pageCount}
        pageSize={data.pageSize}
        total={data.total}
        searchParams={searchParams}
        noun="functions"
      />
    </Stack>
  )
}

export const meta: MetaFunction = () => [{ title: 'Functions · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({ title: 'The functions could not be loaded' })
