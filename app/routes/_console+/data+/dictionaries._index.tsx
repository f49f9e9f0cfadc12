import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { listProjectsWithDictionaries } from '~/api/dictionaries.server'
import { loadFromCluster } from '~/api/policies.server'
import { type Column } from '~/components/data-table/data-table'
import { listPage, parsePaging } from '~/components/data-table/paging'
import type { RouteHandle } from '~/utils/handle'
import { catalogProjects, projectFilterOf, scopeText, type ProjectWindow } from '~/utils/catalog-projects'
import { CatalogListPage } from './__catalog-list-page'
import { dictionaryUrl } from './__dictionary-url'
import { fileUrl } from './__file-url'
import { routeErrorBoundary } from '~/components/layout/route-error'

export const handle: RouteHandle = { docsTopic: 'dictionary' }

type DictionaryRow = {
  uuid: string
  name: string
  description: string
  projectId: string
  projectName: string
  file: string
  layout: string
  format: string
  primaryKey: string
}

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const paging = parsePaging(url)
  const project = projectFilterOf(url)
  // a chosen project is read alone; a large org a window of projects at a time (issue 33, decision 088)
  const scope = { projectWindow: null as ProjectWindow | null }
  const { projects, entries } = await loadFromCluster(() =>
    listProjectsWithDictionaries(api, (all) => {
      const { shown, window } = catalogProjects(all, { project, q: paging.q, url })
      scope.projectWindow = window
      return shown
    }),
  )
  const needle = paging.q.toLowerCase()
  const rows: DictionaryRow[] = entries
    .flatMap(({ project, items: dictionaries }) =>
      dictionaries.map((dictionary) => ({
        uuid: dictionary.uuid,
        name: dictionary.name,
        description: dictionary.description ?? '',
        projectId: project.uuid,
        projectName: project.name,
        file: dictionary.settings?.filename ?? '',
        layout: dictionary.settings?.layout ?? '',
        format: dictionary.settings?.format ?? '',
        primaryKey: (dictionary.settings?.primary_key ?? []).join(', '),
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
    /** The dictionaries counted: the org's, or the filtered project's. */
    dictionaryCount: entries.reduce((sum, entry) => sum + entry.items.length, 0),
  }
}

const columns: Column<DictionaryRow>[] = [
  {
    key: 'name',
    header: 'Dictionary',
    isRowHeader: true,
    cell: (row) => <Link to={dictionaryUrl(row.projectId, row.uuid)}>{row.name}</Link>,
  },
  { key: 'project', header: 'Project', cell: (row) => row.projectName },
  {
    key: 'file',
    header: 'File',
    cell: (row) => (row.file ? <Link to={fileUrl(row.projectId, row.file)}>{row.file}</Link> : '—'),
  },
  { key: 'key', header: 'Primary key', cell: (row) => row.primaryKey || '—' },
  { key: 'layout', header: 'Layout', cell: (row) => <span data-badge="">{row.layout || '—'}</span> },
  { key: 'format', header: 'Format', cell: (row) => row.format || '—' },
]

export default function DataDictionariesRoute() {
  const data = useLoaderData<typeof loader>()
  return (
    <CatalogListPage
      data={data}
      title="Dictionaries"
      description={`${data.dictionaryCount} ${data.dictionaryCount === 1 ? 'dictionary' : 'dictionaries'} in ${scopeText(data)}; query one with dictGet('{project}_{name}', …)`}
      create={{ to: '/data/dictionaries/new-data-dictionary', label: 'New dictionary' }}
      nameLabel="Dictionary name"
      plural="dictionaries"
      basePath="/data/dictionaries"
      caption="Dictionaries"
      columns={columns}
      rowKey={(row) => `${row.projectId}/${row.uuid}`}
      empty={{
        message: 'No dictionaries yet. A dictionary loads a file: upload one first.',
        action: { to: '/data/dictionaries/new-data-dictionary', label: 'Create your first dictionary' },
      }}
    />
  )
}

export const meta: MetaFunction = () => [{ title: 'Dictionaries · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({ title: 'The dictionaries could not be loaded' })
