import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { listProjectsWithFunctions } from '~/api/functions.server'
import { loadFromCluster } from '~/api/policies.server'
import { type Column } from '~/components/data-table/data-table'
import { listPage, parsePaging } from '~/components/data-table/paging'
import type { RouteHandle } from '~/utils/handle'
import { catalogProjects, projectFilterOf, scopeText, type ProjectWindow } from '~/utils/catalog-projects'
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
  const url = new URL(request.url)
  const paging = parsePaging(url)
  const project = projectFilterOf(url)
  // a chosen project is read alone; a large org a window of projects at a time (issue 33, decision 088)
  const scope = { projectWindow: null as ProjectWindow | null }
  const { projects, entries } = await loadFromCluster(() =>
    listProjectsWithFunctions(api, (all) => {
      const { shown, window } = catalogProjects(all, { project, q: paging.q, url })
      scope.projectWindow = window
      return shown
    }),
  )
  const needle = paging.q.toLowerCase()
  const rows: FunctionRow[] = entries
    .flatMap(({ project, items: functions }) =>
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
    projects: projects.map((item) => ({ uuid: item.uuid, name: item.name })),
    /** The window of projects read when the org is read a window at a time (decision 088), else null. */
    projectWindow: scope.projectWindow,
    /** The project filtered on, by name (null without a filter or when no project has that id). */
    projectName: project ? (entries[0]?.project.name ?? null) : null,
    /** The functions counted: the org's, or the filtered project's. */
    functionCount: entries.reduce((sum, entry) => sum + entry.items.length, 0),
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
  return (
    <CatalogListPage
      data={data}
      title="Functions"
      description={`${data.functionCount} custom SQL ${data.functionCount === 1 ? 'function' : 'functions'} in ${scopeText(data)}`}
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
