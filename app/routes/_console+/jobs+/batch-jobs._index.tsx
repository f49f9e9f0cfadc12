import { Box, Button, Heading, HStack, Link as ChakraLink, Stack, Text } from '@chakra-ui/react'
import type { SubmissionResult } from '@conform-to/react'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData, useLocation, useRouteError, useSearchParams } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { ClusterError } from '~/api/errors.server'
import {
  cancelBatchJob,
  deleteBatchJob,
  FINISHED_STATUSES,
  getBatchJob,
  listBatchJobs,
  purgeBatchJobs,
  retryBatchJob,
  type BatchJob,
} from '~/api/jobs.server'
import { listAll } from '~/api/list-all.server'
import { Pagination } from '~/components/data-table/pagination'
import { parsePaging } from '~/components/data-table/paging'
import { useTimezone } from '~/components/layout/use-timezone'
import { errorMessage } from '~/utils/error-message'
import { formatDateTime } from '~/utils/format-date'
import { loadFromCluster } from '~/utils/form.server'
import type { RouteHandle } from '~/utils/handle'
import {
  BATCH_STATUSES,
  DeleteJobPanel,
  DetailList,
  FocusHeading,
  JobPanelBox,
  JobsTable,
  PurgePanel,
  RowAction,
  StatusBadge,
  StatusFilter,
  JobsErrorPanel,
  useAutoRefresh,
  useHrefWith,
  type JobColumn,
} from './__job-ui'
import { checkPurge, jobIdOf, oneOf, runJobAction } from './__jobs.server'

export const handle: RouteHandle = { docsTopic: 'batch' }

const INTENTS = ['cancel', 'retry', 'delete', 'purge'] as const

/** The advanced settings the detail panel lists, by the cluster's names. */
const SETTING_LABELS: [string, string][] = [
  ['dry_run', 'Dry run'],
  ['max_files', 'Dry run max files'],
  ['max_minutes_per_partition', 'Max minutes'],
  ['max_rows_per_partition', 'Max rows'],
  ['max_active_partitions', 'Max active'],
  ['input_aggregation', 'Input aggregation'],
  ['input_concurrency', 'Input concurrency'],
  ['regex_filter', 'Regex filter'],
]

function toRow(job: BatchJob) {
  const progress = job.progress ?? {}
  const source = job.settings?.source ?? {}
  return {
    uuid: job.uuid,
    name: job.name,
    description: job.description ?? '',
    status: job.status,
    table: source.table ?? '—',
    transform: source.transform ?? '',
    url: typeof source.settings?.url === 'string' ? source.settings.url : '',
    percent: Math.max(0, Math.min(100, Number(progress.percent ?? 0))),
    filesTotal: progress.files_total ?? 0,
    filesDone: progress.files_done ?? 0,
    rowsRead: progress.rows_read ?? 0,
    rowsIngested: progress.rows_ingested ?? 0,
    rowsRejected: progress.rows_rejected ?? 0,
    errorCount: progress.errors?.length ?? 0,
    error: job.error ?? null,
    created: job.created ?? null,
    started: job.started ?? null,
    finished: job.finished ?? null,
    createdBy: job.created_by ?? null,
    canCancel: ['ready', 'running'].includes(job.status),
    canRetry: ['failed', 'canceled', 'done'].includes(job.status),
  }
}
type BatchRow = ReturnType<typeof toRow>

const isActive = (row: { status: string }) => row.status === 'ready' || row.status === 'running'

/** The open job's details: the row plus its settings and the first errors. */
function toDetail(job: BatchJob) {
  const settings = job.settings ?? {}
  return {
    ...toRow(job),
    subtype: job.settings?.source?.subtype ?? '',
    credential: typeof job.settings?.source?.settings?.credential_id === 'string' ? job.settings.source.settings.credential_id : null,
    settings: SETTING_LABELS.map(([key, label]) => [label, settings[key] === undefined || settings[key] === '' ? '—' : String(settings[key])] as [string, string]),
    errors: (job.progress?.errors ?? []).slice(0, 50),
  }
}

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const paging = parsePaging(url)
  const status = oneOf(url, 'status', BATCH_STATUSES)
  const jobId = url.searchParams.get('job')
  const deleteId = url.searchParams.get('delete')
  const isPurging = url.searchParams.has('purge')

  const page = await loadFromCluster(request, async () => {
    try {
      return await listBatchJobs(api, { page: paging.page, pageSize: paging.pageSize, status })
    } catch (error) {
      if (error instanceof ClusterError && error.status === 404 && paging.page > 1) {
        paging.page = 1
        return listBatchJobs(api, { page: 1, pageSize: paging.pageSize, status })
      }
      throw error
    }
  })
  const rows = page.results.map(toRow)

  let selected: ReturnType<typeof toDetail> | null = null
  let selectedMissing = false
  if (jobId) {
    const job = await loadFromCluster(request, () => getBatchJob(api, jobId).catch(nullOn404))
    if (job) {
      selected = toDetail(job)
      // Read after the list: its row shows the same, fresher state as the panel.
      const index = rows.findIndex((row) => row.uuid === job.uuid)
      if (index >= 0) rows[index] = toRow(job)
    } else selectedMissing = true
  }

  let deleting: { uuid: string; name: string } | null = null
  if (deleteId) {
    const job = rows.find((row) => row.uuid === deleteId) ?? (await loadFromCluster(request, () => getBatchJob(api, deleteId).catch(nullOn404)))
    if (job) deleting = { uuid: job.uuid, name: job.name }
  }

  let finishedCount: number | null = null
  if (isPurging) {
    const all = await loadFromCluster(request, () => listAll<BatchJob>(api, `/orgs/${api.orgId}/jobs/batch/`))
    finishedCount = all.filter((job) => (FINISHED_STATUSES as readonly string[]).includes(job.status)).length
  }

  const pageCount = Math.max(1, Math.ceil(page.count / paging.pageSize))
  return {
    rows,
    total: page.count,
    page: Math.min(paging.page, pageCount),
    pageCount,
    pageSize: paging.pageSize,
    status,
    selected,
    selectedMissing,
    deleting,
    isPurging,
    finishedCount,
    isAnyActive: rows.some(isActive) || Boolean(selected && isActive(selected)),
  }
}

function nullOn404(error: unknown): null {
  if (error instanceof ClusterError && (error.status === 404 || error.status === 400)) return null
  throw error
}

export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const formData = await request.formData()
  const intent = formData.get('intent')
  if (!(INTENTS as readonly unknown[]).includes(intent)) throw data({ message: 'Unknown action' }, { status: 400 })

  if (intent === 'purge') {
    const refused = checkPurge(formData)
    if (refused) return refused
    let purged = 0
    return runJobAction(
      request,
      async () => {
        purged = await purgeBatchJobs(api)
      },
      () => `Purged ${purged} batch ${purged === 1 ? 'job' : 'jobs'}`,
    )
  }

  const jobId = jobIdOf(formData)
  switch (intent) {
    case 'cancel':
      return runJobAction(request, () => cancelBatchJob(api, jobId), 'Batch job canceled')
    case 'retry':
      return runJobAction(request, () => retryBatchJob(api, jobId), 'Batch job restarted', { job: jobId })
    default: {
      const url = new URL(request.url)
      const changes: Record<string, string | null> = url.searchParams.get('job') === jobId ? { job: null } : {}
      return runJobAction(request, () => deleteBatchJob(api, jobId), 'Batch job deleted', changes)
    }
  }
}

export default function BatchJobsRoute() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>() as { purge?: SubmissionResult<string[]> } | undefined
  const [searchParams] = useSearchParams()
  const location = useLocation()
  const timezone = useTimezone()
  const hrefWith = useHrefWith()
  useAutoRefresh(data.isAnyActive)

  const columns: JobColumn<BatchRow>[] = [
    {
      key: 'job',
      header: 'Job',
      isRowHeader: true,
      cell: (row) => (
        <Link to={hrefWith({ job: row.uuid, delete: null, purge: null })}>{row.name}</Link>
      ),
    },
    { key: 'status', header: 'Status', cell: (row) => <StatusBadge status={row.status} /> },
    { key: 'table', header: 'Table', cell: (row) => row.table },
    { key: 'progress', header: 'Progress', cell: (row) => <ProgressCell row={row} /> },
    {
      key: 'rows',
      header: 'Rows',
      cell: (row) => (
        <span title={`${row.rowsRead} read, ${row.rowsIngested} loaded, ${row.rowsRejected} rejected`}>
          {row.rowsIngested} loaded{row.rowsRejected ? <span data-muted=""> · {row.rowsRejected} rejected</span> : null}
        </span>
      ),
    },
    { key: 'errors', header: 'Errors', cell: (row) => (row.errorCount || row.error ? <span data-tone="danger">{row.errorCount || 1}</span> : '0') },
    { key: 'files', header: 'Files', cell: (row) => `${row.filesDone} / ${row.filesTotal}` },
    { key: 'created', header: 'Created', cell: (row) => <span suppressHydrationWarning>{formatDateTime(row.created, timezone)}</span> },
    { key: 'actions', header: 'Actions', cell: (row) => <BatchRowActions row={row} hrefWith={hrefWith} /> },
  ]

  return (
    <Stack gap="4">
      <HStack justify="space-between" wrap="wrap" gap="3" align="end">
        <Box>
          <Heading as="h2" size="md">
            Batch jobs
          </Heading>
          <Text color="fg.muted" fontSize="sm">
            A batch job loads the files under a URL or bucket path into a table through one of its transforms.
          </Text>
        </Box>
        <HStack gap="2" wrap="wrap">
          <Button asChild size="sm" variant="ghost">
            <Link to={`${location.pathname}${location.search}`} reloadDocument>
              Refresh
            </Link>
          </Button>
          <Button asChild size="sm" variant="outline" colorPalette="red">
            <Link to={hrefWith({ purge: '', delete: null })}>Purge finished jobs…</Link>
          </Button>
          <Button asChild size="sm" colorPalette="blue">
            <Link to="/jobs/batch-jobs/create">New batch job</Link>
          </Button>
        </HStack>
      </HStack>

      {data.isPurging ? (
        <PurgePanel kind="batch job" finishedCount={data.finishedCount} lastResult={actionData?.purge} cancelHref={hrefWith({ purge: null })} />
      ) : null}
      {data.deleting ? <DeleteJobPanel job={data.deleting} kind="batch job" cancelHref={hrefWith({ delete: null })} /> : null}
      {data.selected ? (
        <BatchJobPanel job={data.selected} closeHref={hrefWith({ job: null })} hrefWith={hrefWith} />
      ) : data.selectedMissing ? (
        <JobPanelBox label="missing-job-heading">
          <FocusHeading id="missing-job-heading">Job not found</FocusHeading>
          <Text>
            This batch job no longer exists. <Link to={hrefWith({ job: null })}>Close</Link>
          </Text>
        </JobPanelBox>
      ) : null}

      <HStack justify="space-between" align="end" wrap="wrap" gap="3">
        <StatusFilter value={data.status} statuses={BATCH_STATUSES} keep={{ pageSize: searchParams.get('pageSize') ?? undefined }} />
        {data.isAnyActive ? (
          <Text fontSize="sm" color="fg.muted" role="status">
            Jobs are running: this list refreshes itself (or use Refresh).
          </Text>
        ) : null}
      </HStack>

      <JobsTable
        caption="Batch jobs"
        columns={columns}
        rows={data.rows}
        rowKey={(row) => row.uuid}
        selectedKey={data.selected?.uuid ?? searchParams.get('job')}
        empty={
          data.status ? (
            <>
              <Text mb="2">No {data.status} batch jobs.</Text>
              <ChakraLink asChild color="blue.600">
                <Link to="/jobs/batch-jobs">Show all statuses</Link>
              </ChakraLink>
            </>
          ) : (
            <>
              <Text mb="2">No batch jobs yet.</Text>
              <ChakraLink asChild color="blue.600">
                <Link to="/jobs/batch-jobs/create">Load files with a batch job</Link>
              </ChakraLink>
            </>
          )
        }
      />
      {data.total > 0 ? (
        <Pagination page={data.page} pageCount={data.pageCount} pageSize={data.pageSize} total={data.total} searchParams={searchParams} noun="jobs" />
      ) : null}
    </Stack>
  )
}

function ProgressCell({ row }: { row: BatchRow }) {
  // Ready: not started, so no value (an indeterminate bar); afterwards the share of files done.
  return (
    <>
      {row.status === 'ready' ? (
        <progress aria-label={`${row.name} progress`} />
      ) : (
        <progress aria-label={`${row.name} progress`} max={100} value={row.percent} />
      )}
      <span>{row.percent}%</span>
    </>
  )
}

type HrefWith = ReturnType<typeof useHrefWith>

function BatchRowActions({ row, hrefWith, isInPanel }: { isInPanel?: boolean; row: BatchRow; hrefWith: HrefWith }) {
  return (
    <div data-actions="">
      {isInPanel ? null : (
        <Link to={hrefWith({ job: row.uuid, delete: null, purge: null })} data-action-link="" aria-label={`View ${row.name}`}>
          View
        </Link>
      )}
      {row.canCancel ? <RowAction intent="cancel" job={row.uuid} name={row.name} label="Cancel" /> : null}
      {row.canRetry ? <RowAction intent="retry" job={row.uuid} name={row.name} label="Retry" /> : null}
      <Link to={hrefWith({ delete: row.uuid, purge: null })} data-action-link="" data-tone="danger" aria-label={`Delete ${row.name}…`}>
        Delete…
      </Link>
    </div>
  )
}

function BatchJobPanel({ job, closeHref, hrefWith }: { job: ReturnType<typeof toDetail>; closeHref: string; hrefWith: HrefWith }) {
  const timezone = useTimezone()
  const when = (value: string | null) => <span suppressHydrationWarning>{formatDateTime(value, timezone)}</span>
  return (
    <JobPanelBox label="job-heading">
      <HStack justify="space-between" align="start" wrap="wrap">
        <FocusHeading id="job-heading">Batch job {job.name}</FocusHeading>
        <Link to={closeHref}>Close</Link>
      </HStack>
      {job.description ? <Text mb="2">{job.description}</Text> : null}
      <DetailList
        entries={[
          ['Status', <StatusBadge key="s" status={job.status} />],
          ['Progress', <ProgressCell key="p" row={job} />],
          ['Files', `${job.filesDone} of ${job.filesTotal} done`],
          ['Rows', `${job.rowsRead} read, ${job.rowsIngested} loaded, ${job.rowsRejected} rejected`],
          ['Table', job.table],
          ['Transform', job.transform || 'The table’s default'],
          ['Source', <code key="u">{job.url}</code>],
          ['Source type', job.subtype || '—'],
          ['Credential', job.credential ? <code key="cr">{job.credential}</code> : 'None'],
          ['Created', when(job.created)],
          ['Started', when(job.started)],
          ['Finished', when(job.finished)],
          ['Created by', job.createdBy ?? '—'],
          ['Job ID', <code key="id">{job.uuid}</code>],
        ]}
      />
      {job.error ? (
        <Box role="alert" mt="3" bg="red.subtle" color="red.fg" p="3" rounded="md" fontSize="sm">
          {job.error}
        </Box>
      ) : null}
      {job.errors.length ? (
        <>
          <Heading as="h3" size="sm" mt="4" mb="1">
            Errors ({job.errorCount})
          </Heading>
          <Box as="ul" fontSize="sm" fontFamily="mono" pl="5" maxH="48" overflowY="auto">
            {job.errors.map((message, index) => (
              <li key={index}>{message}</li>
            ))}
          </Box>
        </>
      ) : null}
      <Heading as="h3" size="sm" mt="4" mb="1">
        Settings
      </Heading>
      <DetailList entries={job.settings} />
      <Box mt="4">
        <BatchRowActions row={job} hrefWith={hrefWith} isInPanel />
      </Box>
    </JobPanelBox>
  )
}

export const meta: MetaFunction = () => [{ title: 'Batch jobs · Jobs · Cluster Console' }]

export function ErrorBoundary() {
  const error = useRouteError()
  return <JobsErrorPanel title="The batch jobs could not be loaded" message={errorMessage(error)} back={{ to: '/jobs/batch-jobs', label: 'Try again' }} />
}
