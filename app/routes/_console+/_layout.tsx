import { type LoaderFunctionArgs } from '@remix-run/node'
import type { ShouldRevalidateFunctionArgs } from '@remix-run/react'
import { Outlet, useLoaderData, useRouteError, useRouteLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { getCurrentUser, getMyPermissions } from '~/api/users.server'
import { hiddenPaths } from '~/components/layout/nav-config'
import { getVersion } from '~/api/version.server'
import { settle } from '~/api/policies.server'
import { ErrorPanel } from '~/components/layout/route-error'
import { Shell, type ShellData } from '~/components/layout/shell'
import { getEnv } from '~/utils/env.server'
import { errorMessage } from '~/utils/error-message'
import { getLocalZone, getTimezone } from '~/utils/session.server'

const LAYOUT_ROUTE_ID = 'routes/_console+/_layout'

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const env = getEnv()
  const [user, version, permissions] = await Promise.all([
    // A 401 from the user call ends the session (the client throws the redirect); any other
    // failure leaves the shell usable with a generic account label.
    settle(() => getCurrentUser(api)),
    // Spec section 1: the version line is omitted when the version call fails.
    settle(() => getVersion(api)),
    // The menu and sidebar leave out what the user can never do; unread, they show everything.
    settle(() => getMyPermissions(api)),
  ])
  return {
    email: typeof user.value?.email === 'string' ? user.value.email : null,
    timezone: await getTimezone(request),
    localZone: await getLocalZone(request),
    version: version.value || null,
    docsUrl: env.DOCS_URL,
    supportUrl: env.SUPPORT_URL,
    hiddenPaths: hiddenPaths(permissions.value),
  } satisfies ShellData
}

/**
 * The shell's data (email, version, timezone) changes only through a form (e.g. the settings page),
 * so plain navigations skip the two cluster calls; every page's own loader still checks the session.
 */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod && formMethod.toUpperCase() !== 'GET') return defaultShouldRevalidate
  return false
}

export default function ConsoleLayout() {
  const data = useLoaderData<typeof loader>()
  return (
    <Shell data={data}>
      <Outlet />
    </Shell>
  )
}

/**
 * A child route's failure that it does not catch itself: shown inside the shell when the shell's
 * own data loaded, otherwise on its own. Always the catalogue message, never a stack.
 */
export function ErrorBoundary() {
  const error = useRouteError()
  const data = useRouteLoaderData<typeof loader>(LAYOUT_ROUTE_ID)
  const panel = <ErrorPanel message={errorMessage(error)} />
  return data ? <Shell data={data}>{panel}</Shell> : <main style={{ padding: 24 }}>{panel}</main>
}
