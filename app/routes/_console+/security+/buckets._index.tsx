import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { loadFromCluster } from '~/api/policies.server'
import { listStorages } from '~/api/storages.server'
import { type Column } from '~/components/data-table/data-table'
import { ListPage } from '~/components/data-table/list-page'
import { listPage, parsePaging } from '~/components/data-table/paging'
import { CreateLink } from '~/components/layout/create-link'
import { routeErrorBoundary } from '~/components/layout/route-error'

type BucketRow = {
  uuid: string
  name: string
  bucket: string
  cloud: string
  region: string
  isDefault: boolean
  hasCredential: boolean
}

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const paging = parsePaging(new URL(request.url))
  const storages = await loadFromCluster(() => listStorages(api))
  const needle = paging.q.toLowerCase()
  const rows: BucketRow[] = storages
    .map((storage) => ({
      uuid: storage.uuid,
      name: storage.name,
      bucket: `${storage.settings?.bucket_name ?? ''}${
        storage.settings?.bucket_path && storage.settings.bucket_path !== '/' ? storage.settings.bucket_path : ''
      }`,
      cloud: storage.settings?.cloud ?? '',
      region: storage.settings?.region ?? '',
      isDefault: Boolean(storage.settings?.is_default),
      hasCredential: Boolean(storage.settings?.credential_id),
    }))
    .filter((row) => !needle || row.name.toLowerCase().includes(needle) || row.bucket.toLowerCase().includes(needle))
  return { ...listPage(rows, paging), bucketCount: storages.length }
}

const columns: Column<BucketRow>[] = [
  {
    key: 'name',
    header: 'Name',
    isRowHeader: true,
    cell: (row) => (
      <>
        <Link to={`/security/buckets/${row.uuid}`}>{row.name}</Link>
        {row.isDefault ? (
          <>
            {' '}
            <span data-badge="default">default</span>
          </>
        ) : null}
      </>
    ),
  },
  { key: 'bucket', header: 'Bucket', cell: (row) => <code>{row.bucket}</code> },
  { key: 'cloud', header: 'Cloud', cell: (row) => row.cloud },
  { key: 'region', header: 'Region', cell: (row) => row.region || '—' },
  {
    key: 'credential',
    header: 'Credential',
    cell: (row) => (row.hasCredential ? 'Yes' : 'None'),
  },
]

export default function BucketsRoute() {
  const data = useLoaderData<typeof loader>()
  return (
    <ListPage
      level={2}
      title="Buckets"
      description={`${data.bucketCount} ${data.bucketCount === 1 ? 'bucket holds' : 'buckets hold'} table data.`}
      actions={
        <CreateLink to="/security/new-bucket" colorPalette="blue">
          New bucket
        </CreateLink>
      }
      filter="Filter by name or bucket"
      q={data.q}
      caption="Buckets"
      columns={columns}
      rows={data.rows}
      rowKey={(row) => row.uuid}
      empty={{
        message: "No buckets yet: tables use the cluster's own storage.",
        action: { to: '/security/new-bucket', label: 'Add a bucket' },
      }}
      noMatch={{ message: `No buckets match “${data.q}”.`, clearTo: '/security/buckets' }}
      paging={data}
    />
  )
}

export const meta: MetaFunction = () => [{ title: 'Buckets · Security · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({ title: 'The buckets could not be loaded' })
