import { Text } from '~/components/ui/box'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { listAuthLogs, type AuthLogEvent } from '~/api/auth-logs.server'
import { requireApi } from '~/api/client.server'
import { loadFromCluster } from '~/api/policies.server'
import { type Column } from '~/components/data-table/data-table'
import { ListPage } from '~/components/data-table/list-page'
import { Field } from '~/components/forms/field'
import { useLazySchemaForm } from '~/components/forms/use-lazy-schema-form'
import { DateTime } from '~/components/layout/date-time'
import { AUTH_LOG_MAX_LIMIT, AuthLogFilterSchema, recentDays } from '~/schemas/security-logs'
import { LogFilterForm } from './__log-filter-form'
import { routeErrorBoundary } from '~/components/layout/route-error'

/** What the page asks for when the URL names nothing: the last week, 100 events. */
const DEFAULT_DAYS = 7
const DEFAULT_LIMIT = 100

/** One event as the table shows it: every field of spec section 3, as text. */
type AuthLogRow = {
  key: string
  time: string
  timestamp: string
  username: string
  type: string
  realmId: string
  clientId: string
  userId: string
  sessionId: string
  ipAddress: string
  error: string
  details: string
}

function toRow(event: AuthLogEvent, index: number): AuthLogRow {
  return {
    key: event.id ?? `${event.time}-${index}`,
    time: String(event.time ?? ''),
    timestamp: event.timestamp ?? (typeof event.time === 'number' ? new Date(event.time).toISOString() : ''),
    username: event.username ?? '',
    type: event.type ?? '',
    realmId: event.realmId ?? '',
    clientId: event.clientId ?? '',
    userId: event.userId ?? '',
    sessionId: event.sessionId ?? '',
    ipAddress: event.ipAddress ?? '',
    error: event.error ?? '',
    details: event.details && Object.keys(event.details).length ? JSON.stringify(event.details) : '',
  }
}

// Fetched after hydration; the HTML constraints come from the loader (decision 032).
const loadAuthLogFilterSchema = () => import('~/schemas/security-logs').then((module) => module.AuthLogFilterSchema)

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const isBare = !['from', 'to', 'limit'].some((key) => url.searchParams.has(key))
  // The first visit shows the last week; once the form is sent, each of the three is required.
  const params = isBare
    ? new URLSearchParams({ ...recentDays(DEFAULT_DAYS), limit: String(DEFAULT_LIMIT) })
    : url.searchParams
  const submission = parseWithZod(params, { schema: AuthLogFilterSchema })
  // zod stays out of the page's scripts: its constraints and the limit travel as data
  const form = { constraint: getZodConstraint(AuthLogFilterSchema), maxLimit: AUTH_LOG_MAX_LIMIT }
  if (submission.status !== 'success')
    return { rows: [] as AuthLogRow[], filterResult: submission.reply(), values: Object.fromEntries(params), ...form }
  const { from, to, limit } = submission.value
  const events = await loadFromCluster(() => listAuthLogs(api, { fromDate: from, toDate: to, limit }))
  return { rows: events.map(toRow), filterResult: null, values: { from, to, limit: String(limit) }, ...form }
}

const dash = (text: string) => text || '—'

const columns: Column<AuthLogRow>[] = [
  { key: 'time', header: 'Time', cell: (row) => <code>{row.time}</code> },
  { key: 'timestamp', header: 'Timestamp', isRowHeader: true, cell: (row) => <DateTime value={row.timestamp} /> },
  { key: 'username', header: 'Username', cell: (row) => dash(row.username) },
  { key: 'type', header: 'Type', cell: (row) => <span data-badge={row.error ? 'error' : ''}>{row.type}</span> },
  { key: 'realmId', header: 'Realm ID', cell: (row) => dash(row.realmId) },
  { key: 'clientId', header: 'Client ID', cell: (row) => dash(row.clientId) },
  { key: 'userId', header: 'User ID', cell: (row) => (row.userId ? <code>{row.userId}</code> : '—') },
  { key: 'sessionId', header: 'Session ID', cell: (row) => (row.sessionId ? <code>{row.sessionId}</code> : '—') },
  { key: 'ipAddress', header: 'IP address', cell: (row) => dash(row.ipAddress) },
  { key: 'error', header: 'Error', cell: (row) => dash(row.error) },
  { key: 'details', header: 'Details', cell: (row) => (row.details ? <code>{row.details}</code> : '—') },
]

export default function AuthLogsRoute() {
  const data = useLoaderData<typeof loader>()
  const [form, fields] = useLazySchemaForm(loadAuthLogFilterSchema, {
    constraint: data.constraint,
    // A new id per answer, so the fields show the values this page was loaded with.
    id: `auth-log-filter-${data.values.from ?? ''}-${data.values.to ?? ''}-${data.values.limit ?? ''}`,
    lastResult: data.filterResult,
    defaultValue: data.values,
    shouldValidate: 'onSubmit',
  })
  return (
    <ListPage
      level={2}
      title="Auth logs"
      description="Sign-ins and failed sign-ins, newest first. Dates are UTC days, both included."
      filter={
        <LogFilterForm form={form} label="Auth log filters" clearTo="/security/auth-logs">
          <Field meta={fields.from} label="From" type="date" inputProps={{ size: 'sm' }} />
          <Field meta={fields.to} label="To" type="date" inputProps={{ size: 'sm' }} />
          <Field
            meta={fields.limit}
            label="Limit"
            type="number"
            help={`At most ${data.maxLimit} events.`}
            inputProps={{ size: 'sm', min: 1, max: data.maxLimit }}
          />
        </LogFilterForm>
      }
      caption="Auth log events"
      columns={columns}
      rows={data.rows}
      rowKey={(row) => row.key}
      css={{ '& [data-badge=error]': { bg: 'red.subtle', color: 'red.fg' }, '& td, & th': { whiteSpace: 'nowrap' } }}
      empty={{
        message: data.filterResult
          ? 'Fix the filters above to see the events.'
          : 'No sign-in events between these dates.',
      }}
      afterTable={
        data.rows.length ? (
          <Text fontSize="sm" color="fg.muted">
            {data.rows.length} {data.rows.length === 1 ? 'event' : 'events'}
            {data.rows.length === Number(data.values.limit) ? ' (the limit: there may be more)' : ''}
          </Text>
        ) : null
      }
    />
  )
}

export const meta: MetaFunction = () => [{ title: 'Auth logs · Security · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({ title: 'The auth logs could not be loaded' })
