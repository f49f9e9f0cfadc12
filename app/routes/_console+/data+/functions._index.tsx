import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { listFunctions } from '~/api/functions.server'
import { type Column } from '~/components/data-table/data-table'
import type { RouteHandle } from '~/utils/handle'
import { loadCatalogList } from '~/services/catalog-list.server'
import { scopeText } from '~/utils/catalog-projects'
import { CatalogListPage } from './__catalog-list-page'
import { functionUrl } from './__function-url'
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
  return loadCatalogList(
    api,
    new URL(request.url),
    (projectId) => listFunctions(api, projectId),
    (fn, project): FunctionRow => ({
      uuid: fn.uuid ?? fn.name,
      name: fn.name,
      sql: fn.sql ?? '',
      description: fn.description ?? '',
      projectId: project.uuid,
      projectName: project.name,
    }),
  )
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
  return (
    <CatalogListPage
      data={data}
      title="Functions"
      description={`${data.itemCount} custom SQL ${data.itemCount === 1 ? 'function' : 'functions'} in ${scopeText(data)}`}
      create={{ to: '/data/functions/new-custom-function', label: 'New function' }}
      nameLabel="Function name"
      plural="functions"
      basePath="/data/functions"
      caption="Custom SQL functions"
      columns={columns}
      rowKey={(row) => `${row.projectId}/${row.uuid}`}
      empty={{
        message: 'No custom functions yet.',
        action: { to: '/data/functions/new-custom-function', label: 'Create your first function' },
      }}
    />
  )
}

export const meta: MetaFunction = () => [{ title: 'Functions · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({ title: 'The functions could not be loaded' })
