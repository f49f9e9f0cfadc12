import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData, useSearchParams } from '@remix-run/react'
import { listAuditTrail, type AuditEntry } from '~/api/audit.server'
import { requireApi } from '~/api/client.server'
import { loadFromCluster, nullOnMissing } from '~/api/policies.server'
import { type Column } from '~/components/data-table/data-table'
import { ListPage } from '~/components/data-table/list-page'
import { parsePaging } from '~/components/data-table/paging'
import { Field } from '~/components/forms/field'
import { useLazySchemaForm } from '~/components/forms/use-lazy-schema-form'
import { DateTime } from '~/components/layout/date-time'
import { AuditFilterSchema, type AuditFilter } from '~/schemas/security-logs'
import { LogFilterForm } from './__log-filter-form'
import { routeErrorBoundary } from '~/components/layout/route-error'

type AuditRow = { uuid: string; created: string; user: string; action: string; text: string }

const toRow = (entry: AuditEntry): AuditRow => ({
  uuid: entry.uuid,
  created: entry.created,
  user: entry.user,
  action: entry.action,
  text: entry.text,
})

// Fetched after hydration; the HTML constraints come from the loader (decision 032).
const loadAuditFilterSchema = () => import('~/schemas/security-logs').then((module) => module.AuditFilterSchema)

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const paging = parsePaging(url)
  const submission = parseWithZod(url.searchParams, { schema: AuditFilterSchema })
  const constraint = getZodConstraint(AuditFilterSchema)
  const empty = { rows: [] as AuditRow[], page: 1, pageCount: 1, total: 0, pageSize: paging.pageSize, constraint }
  // A filter that does not parse is answered at its field; nothing is asked of the cluster.
  if (submission.status !== 'success') return { ...empty, filterResult: submission.reply(), isFiltered: true }
  const filter: AuditFilter = submission.value
  const query = {
    user: filter.user,
    action: filter.action,
    search: filter.search,
    fromDate: filter.from,
    toDate: filter.to,
  }

  // The cluster pages the trail; a page past the end (a stale link) shows the last one instead.
  let page = paging.page
  let answer = await loadFromCluster(() =>
    nullOnMissing(() => listAuditTrail(api, query, { page, pageSize: paging.pageSize })),
  )
  if (!answer) {
    const first = await loadFromCluster(() => listAuditTrail(api, query, { page: 1, pageSize: paging.pageSize }))
    page = Math.max(1, Math.ceil(first.count / paging.pageSize))
    answer =
      page === 1 ? first : await loadFromCluster(() => listAuditTrail(api, query, { page, pageSize: paging.pageSize }))
  }
  return {
    rows: answer.results.map(toRow),
    page,
    pageCount: Math.max(1, Math.ceil(answer.count / paging.pageSize)),
    total: answer.count,
    pageSize: paging.pageSize,
    constraint,
    filterResult: null,
    isFiltered: Boolean(filter.user || filter.action || filter.search || filter.from || filter.to),
  }
}

const columns: Column<AuditRow>[] = [
  { key: 'created', header: 'Created', width: '13rem', cell: (row) => <DateTime value={row.created} /> },
  { key: 'user', header: 'User', cell: (row) => row.user },
  { key: 'action', header: 'Action', cell: (row) => <span data-badge="">{row.action}</span> },
  { key: 'text', header: 'Text', isRowHeader: true, cell: (row) => row.text },
]

export default function AuditTrailRoute() {
  const data = useLoaderData<typeof loader>()
  const [searchParams] = useSearchParams()
  const [form, fields] = useLazySchemaForm(loadAuditFilterSchema, {
    constraint: data.constraint,
    // A new id per URL, so the fields show the filters this page was loaded with (back and forward too).
    id: `audit-filter-${searchParams.toString()}`,
    lastResult: data.filterResult,
    defaultValue: Object.fromEntries(
      ['user', 'action', 'search', 'from', 'to'].map((key) => [key, searchParams.get(key) ?? '']),
    ),
    shouldValidate: 'onSubmit',
  })
  return (
    <ListPage
      level={2}
      title="Audit trail"
      description="Who changed what in this organization, newest first."
      filter={
        <LogFilterForm
          form={form}
          label="Audit trail filters"
          keep={{ pageSize: searchParams.get('pageSize') ?? undefined }}
          clearTo="/security/audit-trails"
        >
          <Field meta={fields.user} label="User" help="E-mail, exactly." inputProps={{ size: 'sm' }} />
          <Field meta={fields.action} label="Action" help="For example add_table." inputProps={{ size: 'sm' }} />
          <Field meta={fields.search} label="Text contains" inputProps={{ size: 'sm' }} />
          <Field meta={fields.from} label="From (UTC)" type="date" inputProps={{ size: 'sm' }} />
          <Field meta={fields.to} label="To (UTC, inclusive)" type="date" inputProps={{ size: 'sm' }} />
        </LogFilterForm>
      }
      caption="Audit trail"
      columns={columns}
      rows={data.rows}
      rowKey={(row) => row.uuid}
      empty={{
        message: data.filterResult
          ? 'Fix the filters above to see the trail.'
          : data.isFiltered
            ? 'Nothing matches these filters.'
            : 'Nothing has happened yet.',
      }}
      paging={data}
      noun="entries"
    />
  )
}

export const meta: MetaFunction = () => [{ title: 'Audit trail · Security · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({ title: 'The audit trail could not be loaded' })
