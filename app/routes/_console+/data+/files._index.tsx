import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { listDictionaries } from '~/api/dictionaries.server'
import { listDictionaryFiles } from '~/api/dictionary-files.server'
import { type Column } from '~/components/data-table/data-table'
import { DateTime } from '~/components/layout/date-time'
import { formatBytes } from '~/utils/format-number'
import type { RouteHandle } from '~/utils/handle'
import { loadCatalogList } from '~/services/catalog-list.server'
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
  return loadCatalogList(
    api,
    new URL(request.url),
    async (projectId) => {
      // a project's dictionaries say which use its files: asked only of a project that has files
      // (most have none: one call each, not two, at 50 projects; issue 33)
      const files = await listDictionaryFiles(api, projectId)
      const dictionaries = files.length ? await listDictionaries(api, projectId) : []
      return files.map((file) => ({ file, dictionaries }))
    },
    ({ file, dictionaries }, project): FileRow => ({
      name: file.name,
      projectId: project.uuid,
      projectName: project.name,
      size: typeof file.size === 'number' ? file.size : null,
      modified: file.modified ?? '',
      usedBy: usersOf(dictionaries, file.name),
    }),
  )
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
