import { GuardedLink } from '~/components/layout/denied'
import { whyNot } from '~/api/access.server'
import {
  data as dataResponse,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Link, useActionData, useLoaderData, useSearchParams } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { listProjectsWithTablesBriefly, type Table } from '~/api/tables.server'
import { listProjectsBriefly, pageOfTables } from '~/api/table-search.server'
import type { ClusterApi } from '~/api/client.server'
import type { Project } from '~/api/projects.server'
import { type Column } from '~/components/data-table/data-table'
import { ListPage } from '~/components/data-table/list-page'
import { listPage, parsePaging, type Paging } from '~/components/data-table/paging'
import { DataTabs } from './__data-tabs'
import { loadFromCluster } from '~/api/policies.server'
import type { RouteHandle } from '~/utils/handle'
import { tableUrl } from './__table-url'
import { ProjectStep } from './__project-manage'
import { loadProjectStep, projectAction } from './__project-manage.server'
import { CreateLink } from '~/components/layout/create-link'
import { LoadSampleForm } from '~/components/layout/load-sample-form'
import { LOAD_SAMPLE_INTENT, loadSampleAction } from './__load-sample.server'
import {
  CONSOLE_PROJECT_BADGE,
  CONSOLE_PROJECT_NOTE,
  isConsoleProject,
  namesConsoleProject,
} from '~/utils/console-store'
import { routeErrorBoundary } from '~/components/layout/route-error'

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
  const [list, projectStep, newProjectDenied] = await Promise.all([
    loadFromCluster(() => (paging.q ? searchedRows(api, paging) : pagedRows(api, paging))),
    loadProjectStep(api, new URL(request.url)),
    whyNot(api, 'add_project'),
  ])
  return { ...list, projectStep, newProjectDenied }
}

const rowOf = (project: Project, table: Table | null): TableRow => ({
  projectId: project.uuid,
  projectName: project.name,
  table: table
    ? { uuid: table.uuid, name: table.name, description: table.description ?? '', type: table.type ?? 'turbine' }
    : null,
})

/**
 * One page of the org's tables without a filter, asked of the cluster a page at a time (issue 33,
 * decision 062): how many tables each project has (a one-row page each), then only the pages of the
 * projects the console page spans (by name: `ordering=name`). A project without tables is one row.
 */
async function pagedRows(api: ClusterApi, paging: Paging) {
  // the console's own store is listed only when searched for by name (decision 105)
  const projects = (await listProjectsBriefly(api)).filter((project) => !isConsoleProject(project))
  if (paging.page === 1) return firstPage(api, paging, projects)
  const firsts = await Promise.all(projects.map((project) => pageOfTables(api, project.uuid, 1, 1)))
  const counts = firsts.map((first) => first.count)
  // a project deleted since the list was read (another user, replica or tool) takes no row
  const sizes = firsts.map((first) => (first.isGone ? 0 : Math.max(1, first.count)))
  const total = sizes.reduce((sum, size) => sum + size, 0)
  const pageCount = Math.max(1, Math.ceil(total / paging.pageSize))
  const page = Math.min(paging.page, pageCount)
  const start = (page - 1) * paging.pageSize
  const end = start + paging.pageSize
  const parts: Promise<TableRow[]>[] = []
  let offset = 0
  for (const [index, project] of projects.entries()) {
    const size = sizes[index]!
    const from = Math.max(start - offset, 0)
    const to = Math.min(end - offset, size)
    offset += size
    if (to <= 0 || from >= size) continue
    if (counts[index] === 0) {
      parts.push(Promise.resolve([rowOf(project, null)]))
      continue
    }
    const first = Math.floor(from / paging.pageSize) + 1
    const last = Math.floor((to - 1) / paging.pageSize) + 1
    parts.push(
      Promise.all(
        Array.from({ length: last - first + 1 }, (_, n) => pageOfTables(api, project.uuid, first + n, paging.pageSize)),
      ).then((pages) =>
        pages
          .flatMap((answer) => answer.tables)
          .slice(from - (first - 1) * paging.pageSize, to - (first - 1) * paging.pageSize)
          .map((table) => rowOf(project, table)),
      ),
    )
  }
  return {
    rows: (await Promise.all(parts)).flat(),
    page,
    pageCount,
    total,
    pageSize: paging.pageSize,
    q: paging.q,
    projectCount: projects.length,
    tableCount: counts.reduce((sum, count) => sum + count, 0),
  }
}

/**
 * The first page without a filter: the projects' first tables in order, read a few projects at a
 * time (1, then 2, 4, 8… in parallel) until the page is full, so at 50 projects of 200 tables it is
 * one read, not a count per project (issue 33). When the page is full and something is left, the
 * org's total is not known (`total` and `tableCount` null: "more than"); when every project was
 * read, it is exact, as on any other page.
 */
async function firstPage(api: ClusterApi, paging: Paging, projects: Project[]) {
  const { pageSize } = paging
  const rows: TableRow[] = []
  let tableCount = 0
  let hasMore = false
  let next = 0
  for (let batch = 1; next < projects.length && !hasMore; batch *= 2) {
    const asked = projects.slice(next, next + batch)
    next += asked.length
    const answers = await Promise.all(asked.map((project) => pageOfTables(api, project.uuid, 1, pageSize)))
    for (const [index, { tables, count, isGone }] of answers.entries()) {
      const project = asked[index]!
      // deleted since the project list was read (another user, replica or tool): no row
      if (isGone) continue
      const room = pageSize - rows.length
      // a project read but not shown, or shown in part, is more
      if (room <= 0 || Math.max(1, count) > room) hasMore = true
      if (room <= 0) break
      tableCount += count
      if (count === 0) rows.push(rowOf(project, null))
      else rows.push(...tables.slice(0, room).map((table) => rowOf(project, table)))
    }
  }
  if (next < projects.length && rows.length >= pageSize) hasMore = true
  const total = hasMore ? null : rows.length
  return {
    rows,
    page: 1,
    pageCount: hasMore ? null : 1,
    total,
    pageSize,
    q: paging.q,
    projectCount: projects.length,
    tableCount: hasMore ? null : tableCount,
  }
}

/**
 * A filtered page: the cluster's lists filter by exact name only, so a search reads every project's
 * tables (through the session's short read cache) and filters by table or project name here.
 */
async function searchedRows(api: ClusterApi, paging: Paging) {
  const projects = (await listProjectsWithTablesBriefly(api)).filter(
    ({ project }) => !isConsoleProject(project) || namesConsoleProject(paging.q),
  )
  const needle = paging.q.toLowerCase()
  const matches = (name: string) => name.toLowerCase().includes(needle)
  const rows: TableRow[] = []
  for (const { project, tables } of projects) {
    const shown = matches(project.name) ? tables : tables.filter((table) => matches(table.name))
    for (const table of shown) rows.push(rowOf(project, table))
  }
  return {
    ...listPage(rows, paging),
    projectCount: projects.length,
    tableCount: projects.reduce((sum, entry) => sum + entry.tables.length, 0),
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
    <ListPage
      title="Tables"
      description={
        `${data.tableCount === null ? 'Tables' : `${data.tableCount} ${data.tableCount === 1 ? 'table' : 'tables'}`} ` +
        `in ${data.projectCount} ${data.projectCount === 1 ? 'project' : 'projects'}`
      }
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
      filter="Filter by table or project name"
      q={data.q}
      caption="Projects and their tables"
      columns={columns}
      rows={data.rows}
      rowKey={(row) => row.table?.uuid ?? `project-${row.projectId}`}
      empty={{
        message: data.projectCount > 0 ? 'No tables yet.' : 'No projects or tables yet.',
        action: { to: '/data/new-table', label: 'Create your first table' },
        alternative: data.tableCount === 0 ? <LoadSampleForm /> : null,
      }}
      noMatch={{ message: `No tables or projects match “${data.q}”.`, clearTo: '/data/tables' }}
      paging={data}
    >
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
    </ListPage>
  )
}

export const meta: MetaFunction = () => [{ title: 'Tables · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({ title: 'The tables could not be loaded' })
