import { Text } from '~/components/ui/box'
import { HStack } from '~/components/ui/stack'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction, SerializeFrom } from '@remix-run/node'
import { Link } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { InlineAlert } from '~/components/layout/inline-alert'
import { loadFromCluster } from '~/api/policies.server'
import type { RouteHandle } from '~/utils/handle'
import { PageHeader } from '~/components/layout/page-header'
import { QueryWorkspaceRoute, type WorkspaceHandle, type WorkspaceInput, type WorkspaceView } from './__workspace'
import { readOptions, validateOptions } from '~/utils/query-options'
import { loadPicker, readQueryParams } from '~/services/query/run.server'
import { loadHistoryForEditor, loadSavedForEditor, saveFromEditor } from '~/services/query/saved.server'
import { loadSchemaTree } from '~/services/query/schema.server'
import { routeErrorBoundary } from '~/components/layout/route-error'
import { chartViewFields } from '~/utils/chart-spec'

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const savedId = url.searchParams.get('saved')
  const [picker, schema, { history, historyError }, opened] = await Promise.all([
    loadFromCluster(() => loadPicker(api, url)),
    loadSchemaTree(api, url),
    loadHistoryForEditor(api),
    savedId ? loadSavedForEditor(api, savedId) : null,
  ])
  const params = readQueryParams(url, picker)
  // `?saved=<id>` opens a saved query: its SQL and options, not run.
  const saved = opened?.saved ?? null
  const options = saved ? readOptions(new URLSearchParams(saved.options)) : params.options
  return {
    picker,
    schema,
    sql: saved ? saved.sql : params.sql,
    tableId: params.tableId,
    options,
    optionErrors: saved ? validateOptions(options) : params.optionErrors,
    // the chart view a saved query or a history link keeps: its Run opens the same chart
    view: chartViewFields(saved ? new URLSearchParams(saved.options) : url.searchParams),
    saved: saved
      ? {
          id: saved.id,
          name: saved.name,
          owner: saved.owner,
          // Save offers the user's own query as it is shared; another's is saved as the user's own copy
          isShared: saved.ownerId === api.userId && saved.visibility === 'org',
        }
      : null,
    savedError: opened?.savedError ?? null,
    history,
    historyError,
  }
}

/** Save (the query form's Save button): see saveFromEditor. */
export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  return saveFromEditor(api, await request.formData())
}

/** The editor's part of the shared Query workspace (./__workspace). */
function editorView({ data: loaded, actionData }: WorkspaceInput): WorkspaceView {
  const data = loaded as SerializeFrom<typeof loader>
  // A refused save shows everything as it was typed, with the errors at their fields.
  const refused = (actionData as SerializeFrom<typeof action> | undefined)?.save
  return {
    header: (
      <div>
        <PageHeader title="Query" mb="2" />
        <Text color="fg.muted" fontSize="sm">
          Run SQL against the cluster. Every run has its own link: share it or bookmark it.
        </Text>
      </div>
    ),
    sql: data.sql,
    tableId: data.tableId,
    picker: data.picker,
    notices:
      data.saved || data.savedError ? (
        <>
          {data.saved ? (
            <HStack gap="2" fontSize="sm" wrap="wrap" role="status">
              <Text>
                Saved query <strong>{data.saved.name}</strong> by {data.saved.owner}, not run yet.
              </Text>
              <Link to="/queries/saved">All saved queries</Link>
            </HStack>
          ) : null}
          {data.savedError ? <InlineAlert>{data.savedError}</InlineAlert> : null}
        </>
      ) : null,
    editorKey: refused ? 'refused' : (data.saved?.id ?? 'editor'),
    editor: {
      sql: refused ? refused.sql : data.sql,
      options: refused ? refused.options : data.options,
      optionErrors: refused ? refused.optionErrors : data.optionErrors,
      sqlError: refused?.fieldErrors.sql,
      schema: data.schema,
      save: refused
        ? {
            name: refused.name,
            isShared: refused.isShared,
            nameError: refused.fieldErrors.name,
            formError: refused.formError,
          }
        : { name: data.saved?.name, isShared: data.saved?.isShared },
      history: { entries: data.history, error: data.historyError },
      view: data.view,
    },
  }
}

export const handle: RouteHandle & WorkspaceHandle = { docsTopic: 'query', workspaceView: editorView }

export default QueryWorkspaceRoute

export const meta: MetaFunction = () => [{ title: 'Query · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({ title: 'The query editor could not be loaded' })
