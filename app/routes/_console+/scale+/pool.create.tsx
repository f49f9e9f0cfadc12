import { Text } from '~/components/ui/box'
import { Stack } from '~/components/ui/stack'
import { getZodConstraint } from '@conform-to/zod/v4'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { loadFromCluster } from '~/api/policies.server'
import { PageHeader } from '~/components/layout/page-header'
import type { RouteHandle } from '~/utils/handle'
import { TableSearchForm } from '~/components/forms/table-search-field'
import { PoolCreateEditor } from './__pool-editor'
import { createPoolAction, loadCreatePool } from './__pool-editor.server'
import { CreationGate } from '~/components/layout/creation-gate'
import { whyNotCreate } from '~/api/access.server'
import { routeErrorBoundary } from '~/components/layout/route-error'
import { PoolFormSchema } from '~/schemas/pool'

export const handle: RouteHandle = { docsTopic: 'scale' }

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const [editor, denied] = await Promise.all([
    loadFromCluster(() => loadCreatePool(api, new URL(request.url))),
    whyNotCreate(api, '/scale/pool/create'),
  ])
  return { ...editor, denied, constraint: getZodConstraint(PoolFormSchema) }
}

export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  return createPoolAction(api, await request.formData())
}

export default function PoolCreateRoute() {
  const { type, service, table, transform, tables, search, defaults, denied, constraint } =
    useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <Stack gap="4" maxW="3xl">
      <PageHeader
        level={2}
        title="New pool"
        description={
          'A pool runs its own workers for one service, sized here. Ingest pools write into one ' +
          'table through one of its transforms.'
        }
        mb="0"
      />
      <CreationGate denied={denied} title="You cannot create pools">
        {tables.length || search.q ? (
          <TableSearchForm search={search} keep={{ type, table }} />
        ) : (
          <Text fontSize="sm" color="fg.muted">
            There are no tables yet: an ingest pool needs one, search and core pools do not.
          </Text>
        )}
        <PoolCreateEditor
          key={`${type}:${table}`}
          type={type}
          service={service}
          table={table}
          transform={transform}
          tables={tables}
          defaults={defaults}
          constraint={constraint}
          lastResult={actionData?.result}
        />
      </CreationGate>
    </Stack>
  )
}

export const meta: MetaFunction = () => [{ title: 'New pool · Scale · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({
  title: 'The pool form could not be shown',
  level: 2,
  back: { to: '/scale', label: 'Back to the pools' },
})
