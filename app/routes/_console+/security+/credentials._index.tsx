import { Stack } from '@chakra-ui/react'
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData, useSearchParams } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { listCredentials, listCredentialTypes } from '~/api/credentials.server'
import { loadFromCluster, settle } from '~/api/policies.server'
import { DataTable, type Column } from '~/components/data-table/data-table'
import { EmptyState } from '~/components/data-table/empty-state'
import { FilterForm } from '~/components/data-table/filter-form'
import { Pagination } from '~/components/data-table/pagination'
import { listPage, parsePaging } from '~/components/data-table/paging'
import { PageHeader } from '~/components/layout/page-header'
import { CreateLink } from '~/components/layout/create-link'
import { routeErrorBoundary } from '~/components/layout/route-error'

type CredentialRow = {
  uuid: string
  name: string
  type: string
  cloud: string
  description: string
}

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const paging = parsePaging(new URL(request.url))
  const [credentials, types] = await Promise.all([
    loadFromCluster(() => listCredentials(api)),
    // The types only name the type column better; the list stands without them.
    settle(() => listCredentialTypes(api)),
  ])
  const needle = paging.q.toLowerCase()
  // Only names and types leave the server: never a credential's details.
  const rows: CredentialRow[] = credentials
    .map((credential) => {
      const type = types.value?.[credential.type ?? '']
      return {
        uuid: credential.uuid,
        name: credential.name,
        type: type?.description ?? credential.type ?? '',
        cloud: credential.cloud ?? type?.cloud ?? '',
        description: credential.description ?? '',
      }
    })
    .filter((row) => !needle || row.name.toLowerCase().includes(needle) || row.type.toLowerCase().includes(needle))
  return { ...listPage(rows, paging), credentialCount: credentials.length }
}

const columns: Column<CredentialRow>[] = [
  {
    key: 'name',
    header: 'Name',
    isRowHeader: true,
    cell: (row) => <Link to={`/security/credentials/${row.uuid}`}>{row.name}</Link>,
  },
  { key: 'type', header: 'Type', cell: (row) => row.type || '—' },
  { key: 'cloud', header: 'Cloud', cell: (row) => row.cloud || '—' },
  {
    key: 'description',
    header: 'Description',
    cell: (row) => row.description || '—',
  },
]

export default function CredentialsRoute() {
  const data = useLoaderData<typeof loader>()
  const [searchParams] = useSearchParams()
  return (
    <Stack gap="4">
      <PageHeader
        level={2}
        title="Credentials"
        description={`${data.credentialCount} ${
          data.credentialCount === 1 ? 'credential' : 'credentials'
        } for buckets, batch jobs and auto ingest. Secrets are never shown.`}
        mb="0"
        actions={
          <CreateLink to="/security/new-credential" colorPalette="blue">
            New credential
          </CreateLink>
        }
      />
      <FilterForm
        label="Filter by name or type"
        value={data.q}
        keep={{ pageSize: searchParams.get('pageSize') ?? undefined }}
      />
      <DataTable
        caption="Credentials"
        columns={columns}
        rows={data.rows}
        rowKey={(row) => row.uuid}
        empty={
          <EmptyState
            message="No credentials yet."
            action={{ to: '/security/new-credential', label: 'Add a credential' }}
            filter={data.q ? { message: `No credentials match “${data.q}”.`, clearTo: '/security/credentials' } : null}
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

export const meta: MetaFunction = () => [{ title: 'Credentials · Security · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({ title: 'The credentials could not be loaded' })
