import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { listCredentials, listCredentialTypes } from '~/api/credentials.server'
import { loadFromCluster, settle } from '~/api/policies.server'
import { type Column } from '~/components/data-table/data-table'
import { ListPage } from '~/components/data-table/list-page'
import { listPage, parsePaging } from '~/components/data-table/paging'
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
  return (
    <ListPage
      level={2}
      title="Credentials"
      description={`${data.credentialCount} ${
        data.credentialCount === 1 ? 'credential' : 'credentials'
      } for buckets, batch jobs and auto ingest. Secrets are never shown.`}
      actions={
        <CreateLink to="/security/new-credential" colorPalette="blue">
          New credential
        </CreateLink>
      }
      filter="Filter by name or type"
      q={data.q}
      caption="Credentials"
      columns={columns}
      rows={data.rows}
      rowKey={(row) => row.uuid}
      empty={{ message: 'No credentials yet.', action: { to: '/security/new-credential', label: 'Add a credential' } }}
      noMatch={{ message: `No credentials match “${data.q}”.`, clearTo: '/security/credentials' }}
      paging={data}
    />
  )
}

export const meta: MetaFunction = () => [{ title: 'Credentials · Security · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({ title: 'The credentials could not be loaded' })
