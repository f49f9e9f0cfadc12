import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { listDictionaries } from '~/api/dictionaries.server'
import { type Column } from '~/components/data-table/data-table'
import type { RouteHandle } from '~/utils/handle'
import { loadCatalogList } from '~/services/catalog-list.server'
import { scopeText } from '~/utils/catalog-projects'
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
  return loadCatalogList(
    api,
    new URL(request.url),
    (projectId) => listDictionaries(api, projectId),
    (dictionary, project): DictionaryRow => ({
      uuid: dictionary.uuid,
      name: dictionary.name,
      description: dictionary.description ?? '',
      projectId: project.uuid,
      projectName: project.name,
      file: dictionary.settings?.filename ?? '',
      layout: dictionary.settings?.layout ?? '',
      format: dictionary.settings?.format ?? '',
      primaryKey: (dictionary.settings?.primary_key ?? []).join(', '),
    }),
  )
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
      description={
        `${data.itemCount} ${data.itemCount === 1 ? 'dictionary' : 'dictionaries'} ` +
        `in ${scopeText(data)}; query one with dictGet('{project}_{name}', …)`
      }
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
