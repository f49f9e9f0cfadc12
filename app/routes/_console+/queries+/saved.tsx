import { chakra } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { HStack } from '~/components/ui/stack'
import { Link as ChakraLink } from '~/components/ui/link'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { loadFromCluster } from '~/api/policies.server'
import {
  deleteSavedQuery,
  listSavedQueries,
  SavedQueriesUnavailable,
  type SavedQuery,
} from '~/api/saved-queries.server'
import { getCurrentUser } from '~/api/users.server'
import { type Column } from '~/components/data-table/data-table'
import { ListPage } from '~/components/data-table/list-page'
import { FilterForm } from '~/components/data-table/filter-form'
import { ConfirmPanel } from '~/components/forms/confirm-panel'
import { DateTime } from '~/components/layout/date-time'
import { InlineAlert } from '~/components/layout/inline-alert'
import { PageHeader } from '~/components/layout/page-header'
import type { RouteHandle } from '~/utils/handle'
import { redirectWithToast } from '~/utils/toast.server'
import { QueryTabs } from './__query-tabs'
import { resultLink } from '~/utils/query-options'
import { unavailableMessage } from '~/services/query/saved.server'
import { routeErrorBoundary } from '~/components/layout/route-error'

export const handle: RouteHandle = { docsTopic: 'query' }

const DELETE_INTENT = 'delete-saved-query'

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const filter = url.searchParams.get('q')?.trim() ?? ''
  const deleteId = url.searchParams.get('delete')
  try {
    const { queries, isSetUp } = await listSavedQueries(api, filter)
    // The step opened by `?delete=<id>` names the query even when the filter hides it.
    const found = deleteId
      ? (queries.find((query) => query.id === deleteId) ??
        (await listSavedQueries(api)).queries.find((query) => query.id === deleteId) ??
        null)
      : null
    // only the user's own query has a delete step (decision 105)
    const deleting = found?.ownerId === api.userId ? found : null
    return { queries, isSetUp, filter, deleting, userId: api.userId, error: null }
  } catch (error) {
    const message = unavailableMessage(error)
    if (message === null) throw error
    return {
      queries: [] as SavedQuery[],
      isSetUp: false,
      filter,
      deleting: null,
      userId: api.userId,
      error: message,
    }
  }
}

/** Deletes one of the user's saved queries after the confirm step (decision 105: its owner only). */
export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const formData = await request.formData()
  const id = formData.get('id')
  if (formData.get('intent') !== DELETE_INTENT || typeof id !== 'string' || !id)
    throw data({ message: 'Unknown action' }, { status: 400 })
  const back = `/queries/saved${listSearch(new URL(request.url).searchParams.get('q'))}`
  try {
    const isDeleted = await loadFromCluster(async () => {
      const user = await getCurrentUser(api)
      return deleteSavedQuery(api, id, { owner: user.email, ownerId: api.userId })
    })
    if (!isDeleted) return redirectWithToast(back, { title: 'That saved query was already deleted', type: 'info' })
  } catch (error) {
    if (!(error instanceof SavedQueriesUnavailable)) throw error
    return redirectWithToast(back, {
      title: 'The saved query was not deleted',
      description: error.message,
      type: 'error',
    })
  }
  return redirectWithToast(back, { title: 'Saved query deleted', type: 'success' })
}

function listSearch(filter: string | null | undefined): string {
  return filter ? `?${new URLSearchParams({ q: filter })}` : ''
}

export default function QuerySavedRoute() {
  const { queries, isSetUp, filter, deleting, userId, error } = useLoaderData<typeof loader>()
  const search = listSearch(filter)
  const columns: Column<SavedQuery>[] = [
    { key: 'name', header: 'Name', isRowHeader: true, cell: (query) => query.name },
    {
      key: 'sql',
      header: 'SQL',
      cell: (query) => (
        <chakra.code display="block" maxW="28rem" truncate title={query.sql} fontSize="xs">
          {query.sql.trim().split('\n')[0]}
        </chakra.code>
      ),
    },
    { key: 'owner', header: 'Saved by', cell: (query) => query.owner },
    {
      key: 'visibility',
      header: 'Seen by',
      cell: (query) => (query.visibility === 'org' ? 'Everyone in the organization' : 'Only you'),
    },
    { key: 'when', header: 'Last saved', cell: (query) => <DateTime value={query.updatedAt} /> },
    {
      key: 'actions',
      header: 'Actions',
      cell: (query) => (
        <HStack gap="3" fontSize="sm">
          <ChakraLink asChild color="link">
            <Link to={`/queries?saved=${encodeURIComponent(query.id)}`} aria-label={`Open ${query.name}`}>
              Open
            </Link>
          </ChakraLink>
          <ChakraLink asChild color="link">
            <Link to={resultLink(query.sql, query.options)} aria-label={`Run ${query.name}`}>
              Run
            </Link>
          </ChakraLink>
          {query.ownerId === userId ? (
            <ChakraLink asChild color="red.fg">
              <Link
                to={`/queries/saved?${new URLSearchParams({ ...(filter ? { q: filter } : {}), delete: query.id })}`}
                aria-label={`Delete ${query.name}`}
              >
                Delete
              </Link>
            </ChakraLink>
          ) : null}
        </HStack>
      ),
    },
  ]
  return (
    <ListPage
      header={
        <div>
          <PageHeader title="Query" mb="2" />
          <Text color="fg.muted" fontSize="sm">
            Your saved queries and those others shared with the organization. Open one to edit it in the editor, or run
            it.
          </Text>
        </div>
      }
      filter={<FilterForm label="Filter by name" value={filter} />}
      caption="Saved queries"
      columns={columns}
      rows={queries}
      rowKey={(query) => query.id}
      selectedKey={deleting?.id}
      empty={{
        message:
          isSetUp || error
            ? 'No saved queries yet. Write a query in the editor, open “Save…”, give it a name and press Save query.'
            : 'No query has been saved on this cluster yet. Write a query in the editor, open “Save…”, ' +
              'give it a name and press Save query.',
        action: { to: '/queries', label: 'Open the editor' },
      }}
      noMatch={{ message: `No saved query has “${filter}” in its name.`, clearTo: '/queries/saved' }}
      isFiltered={Boolean(filter)}
      afterTable={
        queries.length ? (
          <Box fontSize="xs" color="fg.muted">
            A query just saved on another console may take a few seconds to show here.
          </Box>
        ) : null
      }
    >
      <QueryTabs current="saved" sql="" />
      {deleting ? (
        <ConfirmPanel
          id="delete-saved-query"
          title={`Delete saved query “${deleting.name}”?`}
          intent={DELETE_INTENT}
          hiddenFields={{ id: deleting.id }}
          confirmLabel="Delete saved query"
          cancelTo={`/queries/saved${search}`}
        >
          {deleting.visibility === 'org' ? 'It is deleted for everyone in the organization. ' : ''}
          The query's runs stay in each user's history.
        </ConfirmPanel>
      ) : null}
      {error ? <InlineAlert>{error}</InlineAlert> : null}
    </ListPage>
  )
}

export const meta: MetaFunction = () => [{ title: 'Saved queries · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({ title: 'The saved queries could not be loaded' })
