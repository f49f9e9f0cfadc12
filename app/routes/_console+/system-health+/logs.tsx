import { getFormProps, getInputProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { chakra } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { HStack, Stack } from '~/components/ui/stack'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useLocation, useSearchParams } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { countLogs, listLogFacets, listLogs, type LogEntry, type LogFacets } from '~/api/health.server'
import { DataTable, type Column } from '~/components/data-table/data-table'
import { EmptyState } from '~/components/data-table/empty-state'
import { Pagination } from '~/components/data-table/pagination'
import { parsePaging } from '~/components/data-table/paging'
import { ErrorList } from '~/components/forms/error-list'
import { FormErrors } from '~/components/forms/form-errors'
import { SelectField } from '~/components/forms/select-field'
import { SubmitButton } from '~/components/forms/submit-button'
import { InlineAlert } from '~/components/layout/inline-alert'
import type { RouteHandle } from '~/utils/handle'
import { LiveToggle } from './__live-toggle'
import { CUSTOM_RANGE, formatUtc, parseUtcInput, RANGE_PRESETS } from './__range'
import { LogsFilterSchema } from './__range-schemas'
import { RangeFields } from './__range-fields'
import { settle } from '~/api/policies.server'
import { useLazySchemaForm } from '~/components/forms/use-lazy-schema-form'
import { routeErrorBoundary } from '~/components/layout/route-error'

export const handle: RouteHandle = { docsTopic: 'system health' }

/** Levels offered even before the log holds one of them. */
const KNOWN_LEVELS = ['debug', 'info', 'warning', 'error']

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const now = Date.now()
  const url = new URL(request.url)
  const paging = parsePaging(url)
  const submission = parseWithZod(url.searchParams, { schema: LogsFilterSchema })
  const facetsLoad = settle(() => listLogFacets(api))
  const common = { updatedAt: now, pageSize: paging.pageSize, isLive: url.searchParams.get('live') === '1' }
  const noRows = {
    entries: [] as LogEntry[],
    total: 0,
    page: 1,
    pageCount: 1,
    error: null as string | null,
    range: null,
  }

  if (submission.status !== 'success') {
    return {
      ...common,
      ...noRows,
      result: submission.reply(),
      filters: null,
      facets: facetOptions((await facetsLoad).value, submission.payload),
    }
  }
  const value = submission.value
  // Logs end at this instant (not at a 10-second bucket as the counts do): the newest line counts.
  const preset = RANGE_PRESETS.find((candidate) => candidate.value === value.range)
  const start = value.range === CUSTOM_RANGE ? parseUtcInput(value.from) : now - (preset?.ms ?? 3_600_000)
  const end = value.range === CUSTOM_RANGE ? parseUtcInput(value.to) : now
  const filters = {
    start,
    end,
    service: value.service,
    level: value.level,
    pool: value.pool,
    component: value.component,
    container: value.container,
    search: value.q,
  }

  const [counted, facets] = await Promise.all([settle(() => countLogs(api, filters)), facetsLoad])
  const total = counted.value ?? 0
  const pageCount = Math.max(1, Math.ceil(total / paging.pageSize))
  const page = Math.min(paging.page, pageCount)
  const listed = counted.error
    ? counted
    : total === 0
      ? { value: [] as LogEntry[], error: null }
      : await settle(() => listLogs(api, filters, { limit: paging.pageSize, offset: (page - 1) * paging.pageSize }))
  return {
    ...common,
    result: undefined,
    filters: {
      range: value.range,
      from: value.from ?? '',
      to: value.to ?? '',
      service: value.service ?? '',
      level: value.level ?? '',
      pool: value.pool ?? '',
      component: value.component ?? '',
      container: value.container ?? '',
      q: value.q ?? '',
    },
    facets: facetOptions(facets.value, value),
    range: { start, end, label: value.range === CUSTOM_RANGE ? 'Custom range' : preset!.label },
    entries: (listed.value ?? []) as LogEntry[],
    total,
    page,
    pageCount,
    error: listed.error,
  }
}

/** The select options: what the log holds, plus the value asked for (so a deep link keeps its filter). */
function facetOptions(facets: LogFacets | null, wanted: Record<string, unknown>): LogFacets {
  const merge = (known: string[], value: unknown, extra: string[] = []) =>
    [...new Set([...known, ...extra, ...(typeof value === 'string' && value.trim() ? [value.trim()] : [])])].sort()
  return {
    services: merge(facets?.services ?? [], wanted.service),
    levels: merge(facets?.levels ?? [], wanted.level, KNOWN_LEVELS).sort((a, b) => levelRank(a) - levelRank(b)),
    pools: merge(facets?.pools ?? [], wanted.pool),
    components: merge(facets?.components ?? [], wanted.component),
    containers: merge(facets?.containers ?? [], wanted.container),
  }
}

function levelRank(level: string): number {
  const index = KNOWN_LEVELS.indexOf(level)
  return index === -1 ? KNOWN_LEVELS.length : index
}

const logCss = {
  '& td[data-time]': { whiteSpace: 'nowrap', fontFamily: 'mono', fontSize: 'xs' },
  '& span[data-badge][data-level=error]': { bg: 'red.subtle', color: 'red.fg' },
  '& span[data-badge][data-level=warning]': { bg: 'orange.subtle', color: 'orange.fg' },
  '& span[data-badge][data-level=info]': { bg: 'blue.subtle', color: 'blue.fg' },
  '& [data-message]': { wordBreak: 'break-word', minW: '60' },
  '& [data-error]': { color: 'red.fg', wordBreak: 'break-word', fontSize: 'xs' },
} as const

function utcMillis(ms: number): string {
  const iso = new Date(ms).toISOString()
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}`
}

const columns: Column<LogEntry>[] = [
  {
    key: 'time',
    header: 'Time (UTC)',
    cell: (entry) => (
      <time dateTime={new Date(entry.timestamp).toISOString()} data-time="">
        {utcMillis(entry.timestamp)}
      </time>
    ),
  },
  {
    key: 'level',
    header: 'Level',
    cell: (entry) => (
      <span data-badge="" data-level={entry.level}>
        {entry.level}
      </span>
    ),
  },
  { key: 'service', header: 'Service', cell: (entry) => entry.service },
  { key: 'component', header: 'Component', cell: (entry) => entry.component || '—' },
  { key: 'message', header: 'Message', cell: (entry) => <span data-message="">{entry.message}</span> },
  {
    key: 'error',
    header: 'Error',
    cell: (entry) => (entry.error ? <span data-error="">{entry.error}</span> : <span data-muted="">—</span>),
  },
]

export default function SystemHealthLogsRoute() {
  const data = useLoaderData<typeof loader>()
  const location = useLocation()
  const [searchParams] = useSearchParams()
  const filterKey = new URLSearchParams(
    [...searchParams].filter(([key]) => key !== 'live' && key !== 'page'),
  ).toString()
  const hasFilters = Boolean(
    data.filters &&
    (data.filters.service ||
      data.filters.level ||
      data.filters.pool ||
      data.filters.component ||
      data.filters.container ||
      data.filters.q),
  )
  return (
    <Stack gap="4">
      <LogsFilterForm key={filterKey} />
      <HStack justify="space-between" wrap="wrap" gap="3">
        <Text fontSize="sm" color="fg.muted" aria-live="polite">
          {data.range ? `${data.range.label} · ${formatUtc(data.range.start)} to ${formatUtc(data.range.end)} · ` : ''}
          Updated {formatUtc(data.updatedAt)}
        </Text>
        <HStack gap="3">
          <LiveToggle isLive={data.isLive} />
          <Button asChild size="xs" variant="outline">
            <Link to={`${location.pathname}${location.search}`} preventScrollReset>
              Refresh
            </Link>
          </Button>
        </HStack>
      </HStack>
      {data.error ? (
        <InlineAlert title="The logs could not be read.">{data.error}</InlineAlert>
      ) : data.filters ? (
        <Box css={logCss}>
          <DataTable
            caption="Cluster log entries, newest first"
            columns={columns}
            rows={data.entries}
            rowKey={(entry) => `${entry.timestamp}-${entry.service}-${entry.component}-${entry.message}`}
            empty={
              <EmptyState
                message="No log entries in this time range."
                filter={
                  hasFilters
                    ? {
                        message: 'No log entries match these filters in this time range.',
                        clearTo: '/system-health/logs',
                        clearLabel: 'Clear the filters',
                      }
                    : null
                }
              />
            }
          />
          {data.total > 0 ? (
            <Pagination
              page={data.page}
              pageCount={data.pageCount}
              pageSize={data.pageSize}
              total={data.total}
              searchParams={searchParams}
              noun="entries"
            />
          ) : null}
        </Box>
      ) : (
        <Box role="status" color="fg.muted" fontSize="sm">
          Fix the time range to see the logs.
        </Box>
      )}
    </Stack>
  )
}

// The filter schema comes after hydration (decision 077): zod stays out of the tab's first load.
const loadLogsFilterSchema = () => import('./__range-schemas').then((module) => module.LogsFilterSchema)

function LogsFilterForm() {
  const data = useLoaderData<typeof loader>()
  const [form, fields] = useLazySchemaForm(loadLogsFilterSchema, {
    id: 'logs-filters',
    lastResult: data.result,
    defaultValue: data.filters ?? undefined,
  })
  const options = (values: string[]) => values.map((value) => ({ value, label: value }))
  const search = getInputProps(fields.q, { type: 'search' })
  return (
    <Form method="get" {...getFormProps(form)} aria-label="Log filters">
      <FormErrors id={form.errorId} errors={form.errors} />
      {data.isLive ? <input type="hidden" name="live" value="1" /> : null}
      <input type="hidden" name="pageSize" value={data.pageSize} />
      <Box
        display="grid"
        columnGap="4"
        gridTemplateColumns={{
          base: 'minmax(0, 1fr)',
          sm: 'repeat(2, minmax(0, 1fr))',
          lg: 'repeat(4, minmax(0, 1fr))',
        }}
      >
        <SelectField
          meta={fields.service}
          label="Service"
          placeholder="All services"
          options={options(data.facets.services)}
        />
        <SelectField
          meta={fields.level}
          label="Log level"
          placeholder="All levels"
          options={options(data.facets.levels)}
        />
        <SelectField
          meta={fields.component}
          label="Component"
          placeholder="All components"
          options={options(data.facets.components)}
        />
        <SelectField
          meta={fields.container}
          label="Container"
          placeholder="All containers"
          options={options(data.facets.containers)}
        />
        <SelectField meta={fields.pool} label="Pool" placeholder="All pools" options={options(data.facets.pools)} />
      </Box>
      <HStack gap="4" align="flex-start" wrap="wrap">
        <Box flex="1" minW="60" mb="4">
          <chakra.label htmlFor={fields.q.id} display="block" fontWeight="medium" fontSize="sm" mb="1">
            Search
          </chakra.label>
          <Input {...search} key={search.key} placeholder="Text in the message or error" bg="bg" />
          <ErrorList id={fields.q.errorId} errors={fields.q.errors} />
        </Box>
        <RangeFields range={fields.range} from={fields.from} to={fields.to} />
        <Box pt="6">
          <SubmitButton size="sm">Apply filters</SubmitButton>
        </Box>
      </HStack>
    </Form>
  )
}

export const meta: MetaFunction = () => [{ title: 'Logs · System health · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({ title: 'The logs could not be shown' })
