import { Stack, Text } from '@chakra-ui/react'
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData, useRouteError } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { ErrorPanel } from '~/components/layout/route-error'
import { errorMessage } from '~/utils/error-message'
import { loadFromCluster } from '~/api/policies.server'
import type { RouteHandle } from '~/utils/handle'
import { PageHeader } from '~/components/layout/page-header'
import { QueryEditorForm, QueryTabs, TablePicker } from './__query-editor'
import { loadPicker, readQueryParams } from './__query.server'
import { loadSchemaTree } from './__schema.server'

export const handle: RouteHandle = { docsTopic: 'query' }

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const [picker, schema] = await Promise.all([loadFromCluster(() => loadPicker(api)), loadSchemaTree(api)])
  const { sql, tableId, options, optionErrors } = readQueryParams(new URL(request.url), picker)
  return { picker, schema, sql, tableId, options, optionErrors }
}

export default function QueryEditorRoute() {
  const data = useLoaderData<typeof loader>()
  return (
    <Stack gap="4">
      <div>
        <PageHeader title="Query" mb="2" />
        <Text color="fg.muted" fontSize="sm">
          Run SQL against the cluster. Every run has its own link: share it or bookmark it.
        </Text>
      </div>
      <QueryTabs current="editor" sql={data.sql} tableId={data.tableId} />
      <TablePicker picker={data.picker} tableId={data.tableId} />
      <QueryEditorForm sql={data.sql} options={data.options} optionErrors={data.optionErrors} schema={data.schema} />
    </Stack>
  )
}

export const meta: MetaFunction = () => [{ title: 'Query · Cluster Console' }]

export function ErrorBoundary() {
  const error = useRouteError()
  return <ErrorPanel title="The query editor could not be loaded" message={errorMessage(error)} />
}
