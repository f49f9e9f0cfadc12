import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useRouteError } from '@remix-run/react'
import { ErrorPanel } from '~/components/layout/route-error'
import { errorMessage } from '~/utils/error-message'
import { requireSession } from '~/utils/session.server'

/** Any path no page claims: a 404 inside the shell (after the session check, like every console page). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireSession(request)
  throw data({ message: '404 Error: Not Found.', status: 404 }, { status: 404, statusText: 'Not Found' })
}

export default function NotFoundRoute() {
  return null
}

export function ErrorBoundary() {
  return <ErrorPanel title="Page not found" message={errorMessage(useRouteError())} />
}

export const meta: MetaFunction = () => [{ title: 'Not found · Cluster Console' }]
