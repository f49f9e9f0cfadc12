import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { loadFromCluster } from '~/api/policies.server'
import type { RouteHandle } from '~/utils/handle'
import { PoolList } from './__pool-list'
import { loadPoolList } from './__pools.server'
import { routeErrorBoundary } from '~/components/layout/route-error'

export const handle: RouteHandle = { docsTopic: 'scale' }

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  return loadFromCluster(() => loadPoolList(api, 'core', new URL(request.url)))
}

export default function ScaleCoreRoute() {
  return <PoolList data={useLoaderData<typeof loader>()} />
}

export const meta: MetaFunction = () => [{ title: 'Core pools · Scale · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({ title: 'The core pools could not be loaded', level: 2 })
