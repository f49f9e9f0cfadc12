import { chakra } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { HStack, Stack } from '~/components/ui/stack'
import { Heading } from '~/components/ui/heading'
import { Link as ChakraLink } from '~/components/ui/link'
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { loadQueryInsights, type LoggedQuery, type QueryInsights } from '~/api/query-log.server'
import { QUERY_LOG_WINDOW_MINUTES } from '~/utils/query-log-window'
import { getCurrentUser } from '~/api/users.server'
import { DataTable, type Column } from '~/components/data-table/data-table'
import { EmptyState } from '~/components/data-table/empty-state'
import { DateTime } from '~/components/layout/date-time'
import { InlineAlert } from '~/components/layout/inline-alert'
import { PageHeader } from '~/components/layout/page-header'
import { formatBytes, formatNumber } from '~/utils/format-number'
import type { RouteHandle } from '~/utils/handle'
import { QueryTabs } from './__query-tabs'
import { editorLink } from '~/utils/query-options'
import { routeErrorBoundary } from '~/components/layout/route-error'

export const handle: RouteHandle = { docsTopic: 'query' }

/** How far back the page looks (the cluster may keep less: the page says how much it had); the dashboard's too. */
const INSIGHTS_WINDOW_MINUTES = QUERY_LOG_WINDOW_MINUTES

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const isMine = url.searchParams.get('mine') === '1'
  const user = isMine ? await getCurrentUser(api) : null
  const insights = await loadQueryInsights(api, { minutes: INSIGHTS_WINDOW_MINUTES, user: user?.email ?? null })
  // how far back the log goes, in whole minutes: worked out here, so the render never reads the clock
  // (the server's and the browser's renders would disagree; issue 34)
  const coveredMinutes = insights.oldest
    ? Math.max(1, Math.round((Date.now() - Date.parse(insights.oldest)) / 60_000))
    : null
  return { insights, isMine, coveredMinutes }
}

export default function QueryInsightsRoute() {
  const { insights, isMine, coveredMinutes } = useLoaderData<typeof loader>()
  return (
    <Stack gap="4">
      <div>
        <PageHeader title="Query" mb="2" />
        <Text color="fg.muted" fontSize="sm">
          The slowest and the failed queries of the last hour, from the cluster's query log. Open one to edit it in the
          editor.
        </Text>
      </div>
      <QueryTabs current="insights" sql="" />
      <Form method="get">
        <HStack gap="3" fontSize="sm" wrap="wrap">
          <chakra.label display="flex" alignItems="center" gap="2">
            <input type="checkbox" name="mine" value="1" defaultChecked={isMine} />
            Only my queries
          </chakra.label>
          <chakra.button type="submit" borderWidth="1px" rounded="md" px="3" py="1" _hover={{ bg: 'bg.muted' }}>
            Show
          </chakra.button>
          <Text color="fg.muted">{windowText(insights, coveredMinutes)}</Text>
        </HStack>
      </Form>
      {insights.error ? (
        <InlineAlert>
          <Text fontWeight="semibold">The cluster's query log could not be read</Text>
          <chakra.pre whiteSpace="pre-wrap" fontSize="sm" m="0">
            {insights.error}
          </chakra.pre>
        </InlineAlert>
      ) : (
        <>
          {insights.running.length ? (
            <Section title="Running now" id="running">
              <QueryTable caption="Queries running now" rows={insights.running} kind="running" />
            </Section>
          ) : null}
          <Section title="Slowest" id="slowest">
            <QueryTable caption="Slowest queries of the last hour" rows={insights.slowest} kind="slowest" />
          </Section>
          <Section title="Failed" id="failed">
            <QueryTable caption="Failed queries of the last hour" rows={insights.failed} kind="failed" />
          </Section>
        </>
      )}
    </Stack>
  )
}

/** What the log covered: a real cluster keeps a few minutes in hdx.active_queries, so the page says so. */
function windowText(insights: QueryInsights, minutes: number | null): string {
  if (insights.error) return ''
  if (minutes === null) return 'The query log holds no query of the last hour.'
  return minutes >= INSIGHTS_WINDOW_MINUTES - 1
    ? 'The query log covers the whole hour.'
    : `The query log goes back ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}: the cluster keeps no older queries.`
}

function Section({ title, id, children }: { title: string; id: string; children: React.ReactNode }) {
  return (
    <Box as="section" aria-labelledby={`${id}-heading`}>
      <Heading as="h2" id={`${id}-heading`} size="md" mb="2">
        {title}
      </Heading>
      {children}
    </Box>
  )
}

function QueryTable({
  caption,
  rows,
  kind,
}: {
  caption: string
  rows: LoggedQuery[]
  kind: 'running' | 'slowest' | 'failed'
}) {
  const columns: Column<LoggedQuery>[] = [
    {
      key: 'query',
      header: 'Query',
      isRowHeader: true,
      cell: (query) => (
        <ChakraLink asChild color="link">
          <Link to={editorLink(query.query, '')} title={`Open in the editor: ${query.query}`}>
            <chakra.code display="block" maxW="32rem" truncate fontSize="xs">
              {query.query.trim().split('\n')[0]}
            </chakra.code>
          </Link>
        </ChakraLink>
      ),
    },
    { key: 'start', header: 'Started', cell: (query) => <DateTime value={query.start} /> },
    { key: 'user', header: 'User', cell: (query) => query.user || '—' },
    {
      key: 'time',
      header: kind === 'running' ? 'Running for' : 'Duration',
      cell: (query) => `${formatNumber(query.execMs / 1000, { maximumFractionDigits: 2 })} s`,
    },
    ...(kind === 'failed'
      ? [
          {
            key: 'error',
            header: 'Error',
            cell: (query: LoggedQuery) => (
              <Text fontSize="xs" color="fg.error" maxW="32rem" lineClamp={2} title={query.error}>
                {query.error}
              </Text>
            ),
          },
        ]
      : [
          {
            key: 'rows',
            header: kind === 'running' ? 'Rows read so far' : 'Rows read',
            cell: (query: LoggedQuery) => formatNumber(query.rowsRead),
          },
          { key: 'bytes', header: 'Bytes read', cell: (query: LoggedQuery) => formatBytes(query.bytesRead) },
        ]),
  ]
  return (
    <DataTable
      caption={caption}
      columns={columns}
      rows={rows}
      rowKey={(query) => query.id}
      empty={
        <EmptyState
          message={kind === 'failed' ? 'No query failed in the last hour.' : 'No query finished in the last hour.'}
          action={{ to: '/queries', label: 'Open the editor' }}
        />
      }
    />
  )
}

export const meta: MetaFunction = () => [{ title: 'Query insights · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({ title: 'The query insights could not be loaded' })
