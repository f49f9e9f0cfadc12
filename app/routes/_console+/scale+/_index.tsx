import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData, useRouteError } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { loadFromCluster } from '~/api/policies.server'
import { ErrorPanel } from '~/components/layout/route-error'
import { errorMessage } from '~/utils/error-message'
import type { RouteHandle } from '~/utils/handle'
import { PoolList } from './__pool-list'
import { loadPoolList } from './__pools.server'

export const handle: RouteHandle = { docsTopic: 'scale' }

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  return loadFromCluster(() => loadPoolList(api, 'ingest', new URL(request.url)))
}

export default function ScaleIngestRoute() {
  return <PoolList data={useLoaderData<typeof loader>()} />
}

export const meta: MetaFunction = () => [{ title: 'Ingest pools · Scale · Cluster Console' }]

export function ErrorBoundary() {
  const error = useRouteError()
  return <ErrorPanel level={2} title="The ingest pools could not be loaded" message={errorMessage(error)} />
}
