import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { listDictionaries } from '~/api/dictionaries.server'
import { listDictionaryFiles } from '~/api/dictionary-files.server'
import { loadFromCluster } from '~/api/policies.server'
import { listProjects } from '~/api/projects.server'
import { type Column } from '~/components/data-table/data-table'
import { listPage, parsePaging } from '~/components/data-table/paging'
import { DateTime } from '~/components/layout/date-time'
import { formatBytes } from '~/utils/format-number'
import type { RouteHandle } from '~/utils/handle'
import { catalogProjects, projectFilterOf } from '~/utils/catalog-projects'
import { CatalogListPage } from './__catalog-list-page'
import { dictionaryUrl } from './__dictionary-url'
import { fileDownloadUrl, fileUrl } from './__file-url'
import { usersOf } from './__file-usage.server'
import { routeErrorBoundary } from '~/components/layout/route-error'

export const handle: RouteHandle = { docsTopic: 'file' }

type FileRow = {
  name: string
  projectId: string
  projectName: string
  size: number | null
  modified: string
  usedBy: { uuid: string; name: string }[]
}

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const paging = parsePaging(url)
  const project = projectFilterOf(url)
  const projects = await loadFromCluster(() => listProjects(api))
  // a chosen project is read alone; a large org a window of projects at a time (issue 33, decision 088)
  const { shown, window: projectWindow } = catalogProjects(projects, { project, q: paging.q, url })
  const entries = await loadFromCluster(() =>
    Promise.all(
      shown.map(async (item) => {
        // a project's dictionaries say which use its files: asked only of a project that has files
        // (most have none: one call each, not two, at 50 projects; issue 33)
        const files = await listDictionaryFiles(api, item.uuid)
        const dictionaries = files.length ? await listDictionaries(api, item.uuid) : []
        return { project: item, files, dictionaries }
      }),
    ),
  )
  const needle = paging.q.toLowerCase()
  const rows: FileRow[] = entries
    .flatMap(({ project, files, dictionaries }) =>
      files.map((file) => ({
        name: file.name,
        projectId: project.uuid,
        projectName: project.name,
        size: typeof file.size === 'number' ? file.size : null,
        modified: file.modified ?? '',
        usedBy: usersOf(dictionaries, file.name),
      })),
    )
    .filter((row) => !needle || row.name.toLowerCase().includes(needle))
  return {
    ...listPage(rows, paging),
    project,
    projects: projects.map((item) => ({ uuid: item.uuid, name: item.name })),
    /** The window of projects read when the org is read a window at a time (decision 088), else null. */
    projectWindow,
  }
}

const columns: Column<FileRow>[] = [
  {
    key: 'name',
    header: 'File',
    isRowHeader: true,
    cell: (row) => <Link to={fileUrl(row.projectId, row.name)}>{row.name}</Link>,
  },
  { key: 'project', header: 'Project', cell: (row) => row.projectName },
  { key: 'size', header: 'Size', cell: (row) => (row.size === null ? '—' : formatBytes(row.size)) },
  { key: 'modified', header: 'Modified', cell: (row) => (row.modified ? <DateTime value={row.modified} /> : '—') },
  {
    key: 'used',
    header: 'Used by',
    cell: (row) =>
      row.usedBy.length ? (
        row.usedBy.map((dictionary, index) => (
          <span key={dictionary.uuid}>
            {index ? ', ' : ''}
            <Link to={dictionaryUrl(row.projectId, dictionary.uuid)}>{dictionary.name}</Link>
          </span>
        ))
      ) : (
        <span data-muted="">no dictionary</span>
      ),
  },
  {
    key: 'download',
    header: 'Download',
    cell: (row) => (
      <a href={fileDownloadUrl(row.projectId, row.name)} download={row.name} aria-label={`Download ${row.name}`}>
        Download
      </a>
    ),
  },
]

export default function DataFilesRoute() {
  const data = useLoaderData<typeof loader>()
  return (
    <CatalogListPage
      data={data}
      title="Files"
      description="Files that dictionaries load, one set per project."
      create={{ to: '/data/files/new-file', label: 'Upload file' }}
      nameLabel="File name"
      plural="files"
      basePath="/data/files"
      caption="Dictionary files"
      columns={columns}
      rowKey={(row) => `${row.projectId}/${row.name}`}
      empty={{ message: 'No files yet.', action: { to: '/data/files/new-file', label: 'Upload your first file' } }}
    />
  )
}

export const meta: MetaFunction = () => [{ title: 'Files · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({ title: 'The files could not be loaded' })
