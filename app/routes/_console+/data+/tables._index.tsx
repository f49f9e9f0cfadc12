import { GuardedLink } from '~/components/layout/denied'
import { whyNot } from '~/api/access.server'
import { Stack } from '@chakra-ui/react'
import {
  data as dataResponse,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Link, useActionData, useLoaderData, useRouteError, useSearchParams } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { listProjectsWithTablesBriefly } from '~/api/tables.server'
import { DataTable, type Column } from '~/components/data-table/data-table'
import { EmptyState } from '~/components/data-table/empty-state'
import { FilterForm } from '~/components/data-table/filter-form'
import { Pagination } from '~/components/data-table/pagination'
import { listPage, parsePaging } from '~/components/data-table/paging'
import { PageHeader } from '~/components/layout/page-header'
import { DataTabs } from './__data-tabs'
import { ErrorPanel } from '~/components/layout/route-error'
import { errorMessage } from '~/utils/error-message'
import { loadFromCluster } from '~/api/policies.server'
import type { RouteHandle } from '~/utils/handle'
import { tableUrl } from './__table-url'
import { ProjectStep } from './__project-manage'
import { loadProjectStep, projectAction } from './__project-manage.server'
import { CreateLink } from '~/components/layout/create-link'
import { LoadSampleForm } from '~/components/layout/load-sample-form'
import { LOAD_SAMPLE_INTENT, loadSampleAction } from './__load-sample.server'
import { CONSOLE_PROJECT_BADGE, CONSOLE_PROJECT_NOTE, isConsoleProject } from '~/utils/console-store'

export const handle: RouteHandle = { docsTopic: 'table' }

/** One line of the list: a table, or a project that has none yet (`table` null). */
type TableRow = {
  projectId: string
  projectName: string
  table: { uuid: string; name: string; description: string; type: string } | null
}

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const paging = parsePaging(new URL(request.url))
  const [projects, projectStep, newProjectDenied] = await Promise.all([
    loadFromCluster(() => listProjectsWithTablesBriefly(api)),
    loadProjectStep(api, new URL(request.url)),
    whyNot(api, 'add_project'),
  ])
  const needle = paging.q.toLowerCase()
  const matches = (name: string) => name.toLowerCase().includes(needle)

  // The cluster nests tables under projects and has no org-wide table list: rows are gathered
  // per project, filtered by table or project name and paged here.
  const rows: TableRow[] = []
  for (const { project, tables } of projects) {
    const shown = needle && !matches(project.name) ? tables.filter((table) => matches(table.name)) : tables
    if (!shown.length && !needle) rows.push({ projectId: project.uuid, projectName: project.name, table: null })
    for (const table of shown) {
      rows.push({
        projectId: project.uuid,
        projectName: project.name,
        table: {
          uuid: table.uuid,
          name: table.name,
          description: table.description ?? '',
          type: table.type ?? 'turbine',
        },
      })
    }
  }
  return {
    ...listPage(rows, paging),
    projectCount: projects.length,
    tableCount: projects.reduce((sum, entry) => sum + entry.tables.length, 0),
    projectStep,
    newProjectDenied,
  }
}

/** Project create, rename/describe and delete (the steps of __project-manage), and "Load the sample" (any empty state's). */
export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const formData = await request.formData()
  if (formData.get('intent') === LOAD_SAMPLE_INTENT) return loadSampleAction(api, formData)
  const answer = await projectAction(api, formData)
  if (answer === null) throw dataResponse({ message: 'Unknown action' }, { status: 400 })
  return answer
}

// Plain elements inside the table: DataTable styles links, [data-muted] and [data-badge] once.
const columns: Column<TableRow>[] = [
  {
    key: 'table',
    header: 'Table',
    isRowHeader: true,
    cell: (row) =>
      row.table ? (
        <Link to={tableUrl(row.table.uuid, row.projectId)}>{row.table.name}</Link>
      ) : (
        <span data-muted="">
          No tables in this project yet ·{' '}
          <Link to={`/data/new-table?project=${encodeURIComponent(row.projectId)}`}>add one</Link>
        </span>
      ),
  },
  {
    key: 'project',
    header: 'Project',
    cell: (row) => (
      <>
        <Link
          to={`/data/tables?manage-project=${encodeURIComponent(row.projectId)}`}
          aria-label={`Project ${row.projectName}: contents, rename, delete`}
        >
          {row.projectName}
        </Link>
        {isConsoleProject(row.projectName) ? (
          <>
            {' '}
            <span data-badge="console" title={CONSOLE_PROJECT_NOTE}>
              {CONSOLE_PROJECT_BADGE}
            </span>
          </>
        ) : null}
      </>
    ),
  },
  { key: 'description', header: 'Description', cell: (row) => row.table?.description || '—' },
  {
    key: 'type',
    header: 'Type',
    cell: (row) => (row.table ? <span data-badge={row.table.type}>{row.table.type}</span> : null),
  },
]

export default function DataTablesRoute() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [searchParams] = useSearchParams()
  return (
    <Stack gap="4">
      <PageHeader
        title="Tables"
        description={`${data.tableCount} ${data.tableCount === 1 ? 'table' : 'tables'} in ${data.projectCount} ${data.projectCount === 1 ? 'project' : 'projects'}`}
        mb="0"
        actions={
          <>
            <GuardedLink to="/data/tables?manage-project=new" reason={data.newProjectDenied}>
              New project
            </GuardedLink>
            <CreateLink to="/data/new-table" colorPalette="blue">
              New table
            </CreateLink>
          </>
        }
      />
      <ProjectStep
        key={searchParams.toString()}
        step={data.projectStep}
        replies={{
          projectResult: actionData && 'projectResult' in actionData ? actionData.projectResult : undefined,
          deleteProjectResult:
            actionData && 'deleteProjectResult' in actionData ? actionData.deleteProjectResult : undefined,
        }}
      />
      <DataTabs />
      <FilterForm
        label="Filter by table or project name"
        value={data.q}
        keep={{ pageSize: searchParams.get('pageSize') ?? undefined }}
      />
      <DataTable
        caption="Projects and their tables"
        columns={columns}
        rows={data.rows}
        rowKey={(row) => row.table?.uuid ?? `project-${row.projectId}`}
        empty={
          <EmptyState
            message={data.projectCount > 0 ? 'No tables yet.' : 'No projects or tables yet.'}
            action={{ to: '/data/new-table', label: 'Create your first table' }}
            alternative={data.tableCount === 0 ? <LoadSampleForm /> : null}
            filter={data.q ? { message: `No tables or projects match “${data.q}”.`, clearTo: '/data/tables' } : null}
          />
        }
      />
      <Pagination
        page={data.page}
        pageCount={data.pageCount}
        pageSize={data.pageSize}
        total={data.total}
        searchParams={searchParams}
      />
    </Stack>
  )
}

export const meta: MetaFunction = () => [{ title: 'Tables · Cluster Console' }]

export function ErrorBoundary() {
  const error = useRouteError()
  return <ErrorPanel title="The tables could not be loaded" message={errorMessage(error)} />
}
