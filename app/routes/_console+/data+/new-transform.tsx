import { Stack } from '~/components/ui/stack'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { PageHeader } from '~/components/layout/page-header'
import type { RouteHandle } from '~/utils/handle'
import { TableSearchForm } from '~/components/forms/table-search-field'
import { TransformEditor } from './__transform-editor'
import { loadTablePick } from '~/services/table-choices.server'
import { loadTransformDefaults, newTransformValue } from '~/services/transform/defaults.server'
import { transformConstraint, transformEditorAction } from './__transform-editor.server'
import { tableUrl } from './__table-url'
import { CreationGate } from '~/components/layout/creation-gate'
import { whyNotCreate } from '~/api/access.server'
import { routeErrorBoundary } from '~/components/layout/route-error'

export const handle: RouteHandle = { docsTopic: 'transform' }

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const [{ tables, table, search }, denied, { defaults }] = await Promise.all([
    loadTablePick(api, url),
    whyNotCreate(api, '/data/new-transform'),
    loadTransformDefaults(api),
  ])
  return {
    denied,
    tables: tables.map(({ value, label }) => ({ value, label })),
    search: { q: search.q, choices: search.choices, hasMore: search.hasMore },
    chosen: table,
    defaultValue: newTransformValue(table, defaults),
    constraint: transformConstraint(),
    cancelTo: table ? tableUrl(table.split('/')[1]!, table.split('/')[0]!) : '/data/tables',
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  return transformEditorAction(api, await request.formData())
}

export default function NewTransformRoute() {
  const { tables, search, chosen, defaultValue, constraint, cancelTo, denied } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const formKey = actionData && 'formKey' in actionData ? actionData.formKey : 'new'
  return (
    <Stack gap="4" maxW="6xl">
      <PageHeader
        title="New transform"
        description={
          "A transform maps incoming rows (CSV, JSON or HDX) onto the table's columns. Paste a " +
          'sample to infer the columns, validate it on the cluster, then publish.'
        }
        mb="0"
      />
      <CreationGate denied={denied} title="You cannot publish transforms">
        <TableSearchForm
          search={search}
          keep={{ project: chosen.split('/')[0] ?? '', table: chosen.split('/')[1] ?? '' }}
        />
        <TransformEditor
          key={formKey}
          tables={tables}
          isTableFixed={false}
          defaultValue={defaultValue}
          constraint={constraint}
          lastResult={actionData?.result}
          submitLabel="Publish transform"
          cancelTo={cancelTo}
          validation={actionData && 'validation' in actionData ? actionData.validation : null}
          notice={actionData && 'notice' in actionData ? actionData.notice : null}
        />
      </CreationGate>
    </Stack>
  )
}

export const meta: MetaFunction = () => [{ title: 'New transform · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({ title: 'The transform could not be published' })
