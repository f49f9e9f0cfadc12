import { Box, Button, Heading, HStack, Link as ChakraLink, Stack, Text } from '@chakra-ui/react'
import type { SubmissionResult } from '@conform-to/react'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData, useLocation, useRouteError, useSearchParams } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { ClusterError } from '~/api/errors.server'
import {
  cancelAlterJob,
  commitAlterJob,
  deleteAlterJob,
  FINISHED_STATUSES,
  getAlterJob,
  listAlterJobs,
  retryAlterJob,
  verifyAlterJob,
  type AlterJob,
  type AlterVerify,
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
  ALTER_STATUSES,
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

export const handle: RouteHandle = { docsTopic: 'alter' }

const INTENTS = ['commit', 'cancel', 'retry', 'delete', 'purge'] as const

/** One row of the list: only what the page shows, not the cluster's whole job. */
function toRow(job: AlterJob) {
  const settings = job.settings ?? {}
  const isCommitting = Boolean(settings.committing) && job.status === 'running'
  return {
    uuid: job.uuid,
    name: job.name,
    status: job.status,
    table: settings.project_name && settings.table_name ? `${settings.project_name}.${settings.table_name}` : '—',
    kind: settings.kind ?? '',
    sql: settings.sql ?? job.description ?? '',
    created: job.created ?? null,
    modified: job.modified ?? null,
    createdBy: job.created_by ?? null,
    rowsToAlter: job.progress?.rows_to_alter ?? null,
    rowsAltered: job.progress?.rows_altered ?? null,
    error: job.error ?? null,
    isCommitting,
    canCommit: job.status === 'pending',
    canCancel: ['ready', 'running', 'pending'].includes(job.status) && !isCommitting,
    canRetry: ['failed', 'canceled'].includes(job.status),
    canDelete: !isCommitting,
  }
}
type AlterRow = ReturnType<typeof toRow>

const isActive = (row: AlterRow) => row.status === 'ready' || row.status === 'running'

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const paging = parsePaging(url)
  const status = oneOf(url, 'status', ALTER_STATUSES)
  const jobId = url.searchParams.get('job')
  const deleteId = url.searchParams.get('delete')
  const isPurging = url.searchParams.has('purge')

  const page = await loadFromCluster(request, async () => {
    try {
      return await listAlterJobs(api, { page: paging.page, pageSize: paging.pageSize, status })
    } catch (error) {
      // A page past the end (the list shrank): the first page instead of an error.
      if (error instanceof ClusterError && error.status === 404 && paging.page > 1) {
        paging.page = 1
        return listAlterJobs(api, { page: 1, pageSize: paging.pageSize, status })
      }
      throw error
    }
  })
  const rows = page.results.map(toRow)

  // The open job (`?job=`): its details and what verify says now; a job that is gone says so.
  let selected: { job: AlterRow; verify: AlterVerify[] | null; verifyError: string | null } | null = null
  let selectedMissing = false
  if (jobId) {
    const job = await loadFromCluster(request, () => getAlterJob(api, jobId).catch(nullOn404))
    if (job) {
      let verify: AlterVerify[] | null = null
      let verifyError: string | null = null
      try {
        verify = await verifyAlterJob(api, jobId)
      } catch (error) {
        if (!(error instanceof ClusterError)) throw error
        verifyError = error.message
      }
      selected = { job: toRow(job), verify, verifyError }
      // Read after the list: its row shows the same, fresher state as the panel.
      const index = rows.findIndex((row) => row.uuid === job.uuid)
      if (index >= 0) rows[index] = selected.job
    } else selectedMissing = true
  }

  let deleting: { uuid: string; name: string } | null = null
  if (deleteId) {
    const job = rows.find((row) => row.uuid === deleteId) ?? (await loadFromCluster(request, () => getAlterJob(api, deleteId).catch(nullOn404)))
    if (job) deleting = { uuid: job.uuid, name: job.name }
  }

  let finishedCount: number | null = null
  if (isPurging) {
    const all = await loadFromCluster(request, () => listAll<AlterJob>(api, `/orgs/${api.orgId}/jobs/alter/`))
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
    isAnyActive: rows.some(isActive) || Boolean(selected && isActive(selected.job)),
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
    // The cluster's purgejobs clears batch jobs only: finished alter jobs are deleted one by one.
    let purged = 0
    return runJobAction(
      request,
      async () => {
        const all = await listAll<AlterJob>(api, `/orgs/${api.orgId}/jobs/alter/`)
        for (const job of all.filter((entry) => (FINISHED_STATUSES as readonly string[]).includes(entry.status))) {
          await deleteAlterJob(api, job.uuid)
          purged++
        }
      },
      () => `Purged ${purged} alter ${purged === 1 ? 'job' : 'jobs'}`,
    )
  }

  const jobId = jobIdOf(formData)
  switch (intent) {
    case 'commit':
      return runJobAction(request, () => commitAlterJob(api, jobId), 'Alter job committed: the data is being changed', { job: jobId })
    case 'cancel':
      return runJobAction(request, () => cancelAlterJob(api, jobId), 'Alter job canceled')
    case 'retry':
      return runJobAction(request, () => retryAlterJob(api, jobId), 'Alter job restarted', { job: jobId })
    default: {
      const url = new URL(request.url)
      // The open panel closes when its job is deleted.
      const changes: Record<string, string | null> = url.searchParams.get('job') === jobId ? { job: null } : {}
      return runJobAction(request, () => deleteAlterJob(api, jobId), 'Alter job deleted', changes)
    }
  }
}

export default function AlterJobsRoute() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>() as { purge?: SubmissionResult<string[]> } | undefined
  const [searchParams] = useSearchParams()
  const location = useLocation()
  const timezone = useTimezone()
  const hrefWith = useHrefWith()
  useAutoRefresh(data.isAnyActive)

  const columns: JobColumn<AlterRow>[] = [
    {
      key: 'job',
      header: 'Job',
      isRowHeader: true,
      cell: (row) => (
        <Link to={hrefWith({ job: row.uuid, delete: null, purge: null })}>{row.name}</Link>
      ),
    },
    { key: 'status', header: 'Status', cell: (row) => <StatusCell row={row} /> },
    { key: 'table', header: 'Table', cell: (row) => row.table },
    { key: 'sql', header: 'SQL', cell: (row) => <code title={row.sql}>{row.sql.length > 90 ? `${row.sql.slice(0, 90)}…` : row.sql}</code> },
    {
      key: 'created',
      header: 'Created',
      cell: (row) => <span suppressHydrationWarning>{formatDateTime(row.created, timezone)}</span>,
    },
    { key: 'rows', header: 'Rows', cell: (row) => <RowsCell row={row} /> },
    { key: 'actions', header: 'Actions', cell: (row) => <AlterRowActions row={row} hrefWith={hrefWith} /> },
  ]

  return (
    <Stack gap="4">
      <HStack justify="space-between" wrap="wrap" gap="3" align="end">
        <Box>
          <Heading as="h2" size="md">
            Alter jobs
          </Heading>
          <Text color="fg.muted" fontSize="sm">
            An alter job counts the rows its SQL touches and waits as pending; data changes only when you commit it.
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
            <Link to="/jobs/alter-jobs/create">New alter job</Link>
          </Button>
        </HStack>
      </HStack>

      {data.isPurging ? (
        <PurgePanel kind="alter job" finishedCount={data.finishedCount} lastResult={actionData?.purge} cancelHref={hrefWith({ purge: null })} />
      ) : null}
      {data.deleting ? <DeleteJobPanel job={data.deleting} kind="alter job" cancelHref={hrefWith({ delete: null })} /> : null}
      {data.selected ? (
        <AlterJobPanel selected={data.selected} closeHref={hrefWith({ job: null })} hrefWith={hrefWith} />
      ) : data.selectedMissing ? (
        <JobPanelBox label="missing-job-heading">
          <FocusHeading id="missing-job-heading">Job not found</FocusHeading>
          <Text>
            This alter job no longer exists. <Link to={hrefWith({ job: null })}>Close</Link>
          </Text>
        </JobPanelBox>
      ) : null}

      <HStack justify="space-between" align="end" wrap="wrap" gap="3">
        <StatusFilter value={data.status} statuses={ALTER_STATUSES} keep={{ pageSize: searchParams.get('pageSize') ?? undefined }} />
        {data.isAnyActive ? (
          <Text fontSize="sm" color="fg.muted" role="status">
            Jobs are running: this list refreshes itself (or use Refresh).
          </Text>
        ) : null}
      </HStack>

      <JobsTable
        caption="Alter jobs"
        columns={columns}
        rows={data.rows}
        rowKey={(row) => row.uuid}
        selectedKey={data.selected?.job.uuid ?? searchParams.get('job')}
        empty={
          data.status ? (
            <>
              <Text mb="2">No {data.status} alter jobs.</Text>
              <ChakraLink asChild color="blue.600">
                <Link to="/jobs/alter-jobs">Show all statuses</Link>
              </ChakraLink>
            </>
          ) : (
            <>
              <Text mb="2">No alter jobs yet.</Text>
              <ChakraLink asChild color="blue.600">
                <Link to="/jobs/alter-jobs/create">Create an alter job</Link>
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

function StatusCell({ row }: { row: AlterRow }) {
  if (row.isCommitting) return <span data-status="running">committing</span>
  return <StatusBadge status={row.status} />
}

function RowsCell({ row }: { row: AlterRow }) {
  if (row.status === 'ready' || row.status === 'running') {
    return (
      <>
        <progress aria-label={`${row.name} progress`} />
        <span data-muted="">{row.isCommitting ? 'changing data' : 'counting'}</span>
      </>
    )
  }
  if (row.status === 'done') return <span>{row.rowsAltered ?? row.rowsToAlter ?? 0} altered</span>
  if (row.rowsToAlter === null) return <span data-muted="">—</span>
  return <span>{row.rowsToAlter} to alter</span>
}

type HrefWith = ReturnType<typeof useHrefWith>

function AlterRowActions({ row, hrefWith, isInPanel }: { isInPanel?: boolean; row: AlterRow; hrefWith: HrefWith }) {
  return (
    <div data-actions="">
      {isInPanel ? null : (
        <Link to={hrefWith({ job: row.uuid, delete: null, purge: null })} data-action-link="" aria-label={`View ${row.name}`}>
          View
        </Link>
      )}
      {row.canCommit ? <RowAction intent="commit" job={row.uuid} name={row.name} label="Commit changes" tone="primary" /> : null}
      {row.canCancel ? <RowAction intent="cancel" job={row.uuid} name={row.name} label="Cancel" /> : null}
      {row.canRetry ? <RowAction intent="retry" job={row.uuid} name={row.name} label="Retry" /> : null}
      {row.canDelete ? (
        <Link to={hrefWith({ delete: row.uuid, purge: null })} data-action-link="" data-tone="danger" aria-label={`Delete ${row.name}…`}>
          Delete…
        </Link>
      ) : null}
    </div>
  )
}

function AlterJobPanel({
  selected,
  closeHref,
  hrefWith,
}: {
  selected: { job: AlterRow; verify: AlterVerify[] | null; verifyError: string | null }
  closeHref: string
  hrefWith: HrefWith
}) {
  const { job, verify, verifyError } = selected
  const timezone = useTimezone()
  return (
    <JobPanelBox label="job-heading">
      <HStack justify="space-between" align="start" wrap="wrap">
        <FocusHeading id="job-heading">Alter job {job.name}</FocusHeading>
        <Link to={closeHref}>Close</Link>
      </HStack>
      <DetailList
        entries={[
          ['Status', <StatusCell key="s" row={job} />],
          ['Table', job.table],
          ['Kind', job.kind || '—'],
          ['Rows to alter', job.rowsToAlter === null ? 'Not counted yet' : String(job.rowsToAlter)],
          ['Rows altered', job.rowsAltered === null ? '—' : String(job.rowsAltered)],
          ['Created', <span key="c" suppressHydrationWarning>{formatDateTime(job.created, timezone)}</span>],
          ['Last change', <span key="m" suppressHydrationWarning>{formatDateTime(job.modified, timezone)}</span>],
          ['Created by', job.createdBy ?? '—'],
          ['Job ID', <code key="id">{job.uuid}</code>],
        ]}
      />
      <Heading as="h3" size="sm" mt="4" mb="1">
        SQL
      </Heading>
      <Box as="pre" fontFamily="mono" fontSize="sm" bg="bg.muted" p="3" rounded="md" whiteSpace="pre-wrap" wordBreak="break-word">
        {job.sql}
      </Box>
      {job.error ? (
        <Box role="alert" mt="3" bg="red.subtle" color="red.fg" p="3" rounded="md" fontSize="sm">
          {job.error}
        </Box>
      ) : null}
      <Heading as="h3" size="sm" mt="4" mb="1">
        Verify
      </Heading>
      {verifyError ? (
        <Text fontSize="sm" color="fg.error">
          {verifyError}
        </Text>
      ) : verify && verify.length ? (
        <Stack gap="1" fontSize="sm">
          {verify.map((result) => (
            <Text key={result.table}>
              {result.table}: {result.rows_matching_now ?? '—'} rows match the WHERE now
              {result.rows_to_alter !== null ? ` (${result.rows_to_alter} counted when the job ran)` : ''}.{' '}
              {job.status === 'done' ? (result.verified ? 'Verified.' : 'Not verified.') : 'Verified once committed.'}
              {result.error ? ` ${result.error}` : ''}
            </Text>
          ))}
        </Stack>
      ) : (
        <Text fontSize="sm" color="fg.muted">
          No verify results.
        </Text>
      )}
      <Box mt="4">
        <AlterRowActions row={job} hrefWith={hrefWith} isInPanel />
      </Box>
    </JobPanelBox>
  )
}

export const meta: MetaFunction = () => [{ title: 'Alter jobs · Jobs · Cluster Console' }]

export function ErrorBoundary() {
  const error = useRouteError()
  return <JobsErrorPanel title="The alter jobs could not be loaded" message={errorMessage(error)} back={{ to: '/jobs/alter-jobs', label: 'Try again' }} />
}
