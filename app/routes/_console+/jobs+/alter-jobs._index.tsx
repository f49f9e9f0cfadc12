import { Box, Text } from '~/components/ui/box'
import { Stack } from '~/components/ui/stack'
import { Heading } from '~/components/ui/heading'
import type { SubmissionResult } from '@conform-to/react'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { settle } from '~/api/policies.server'
import {
  cancelAlterJob,
  commitAlterJob,
  deleteAlterJob,
  getAlterJob,
  listAlterJobs,
  retryAlterJob,
  verifyAlterJob,
  type AlterJob,
  type AlterVerify,
} from '~/api/jobs.server'
import { DateTime } from '~/components/layout/date-time'
import type { RouteHandle } from '~/utils/handle'
import { StatusBadge } from '~/components/data-table/status-badge'
import { DetailList } from '~/components/layout/detail-list'
import { ALTER_STATUSES, RowAction, type JobColumn } from './__job-ui'
import { JobDetailPanel, JobRowActions, JobsListPage } from './__jobs-list'
import {
  deleteJobAction,
  intentOf,
  jobIdOf,
  listFinishedJobs,
  loadJobList,
  purgeJobsAction,
  runJobAction,
} from './__jobs.server'
import { routeErrorBoundary } from '~/components/layout/route-error'

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

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  return loadJobList(request, api, {
    type: 'alter',
    statuses: ALTER_STATUSES,
    list: listAlterJobs,
    get: getAlterJob,
    toRow,
    // The open job with what verify says now.
    toSelected: async (job) => {
      const verify = await settle<AlterVerify[]>(() => verifyAlterJob(api, job.uuid))
      return { job: toRow(job), verify: verify.value, verifyError: verify.error }
    },
  })
}

export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const formData = await request.formData()
  const intent = intentOf(formData, INTENTS)

  if (intent === 'purge') {
    // The cluster's purgejobs clears batch jobs only: finished alter jobs are deleted one by one.
    return purgeJobsAction(request, formData, 'alter job', async () => {
      let purged = 0
      for (const job of await listFinishedJobs(api, 'alter')) {
        await deleteAlterJob(api, job.uuid)
        purged++
      }
      return purged
    })
  }

  const jobId = jobIdOf(formData)
  switch (intent) {
    case 'commit':
      return runJobAction(request, () => commitAlterJob(api, jobId), 'Alter job committed: the data is being changed', {
        job: jobId,
      })
    case 'cancel':
      return runJobAction(request, () => cancelAlterJob(api, jobId), 'Alter job canceled')
    case 'retry':
      return runJobAction(request, () => retryAlterJob(api, jobId), 'Alter job restarted', { job: jobId })
    default:
      return deleteJobAction(request, jobId, 'Alter job deleted', () => deleteAlterJob(api, jobId))
  }
}

export default function AlterJobsRoute() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>() as { purge?: SubmissionResult<string[]> } | undefined

  const columns: JobColumn<AlterRow>[] = [
    { key: 'status', header: 'Status', cell: (row) => <StatusCell row={row} /> },
    { key: 'table', header: 'Table', cell: (row) => row.table },
    {
      key: 'sql',
      header: 'SQL',
      cell: (row) => <code title={row.sql}>{row.sql.length > 90 ? `${row.sql.slice(0, 90)}…` : row.sql}</code>,
    },
    {
      key: 'created',
      header: 'Created',
      cell: (row) => <DateTime value={row.created} />,
    },
    { key: 'rows', header: 'Rows', cell: (row) => <RowsCell row={row} /> },
  ]

  return (
    <JobsListPage
      noun="alter job"
      intro="An alter job counts the rows its SQL touches and waits as pending; data changes only when you commit it."
      basePath="/jobs/alter-jobs"
      createLabel="Create an alter job"
      statuses={ALTER_STATUSES}
      data={data}
      selectedKey={data.selected?.job.uuid}
      columns={columns}
      actions={(row) => <AlterRowActions row={row} />}
      panel={data.selected ? <AlterJobPanel selected={data.selected} /> : null}
      purgeResult={actionData?.purge}
    />
  )
}

function StatusCell({ row }: { row: AlterRow }) {
  if (row.isCommitting) return <StatusBadge status="running">committing</StatusBadge>
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

function AlterRowActions({ row, isInPanel }: { row: AlterRow; isInPanel?: boolean }) {
  return (
    <JobRowActions job={row} isInPanel={isInPanel} canDelete={row.canDelete}>
      {row.canCommit ? (
        <RowAction intent="commit" job={row.uuid} name={row.name} label="Commit changes" tone="primary" />
      ) : null}
      {row.canCancel ? <RowAction intent="cancel" job={row.uuid} name={row.name} label="Cancel" /> : null}
      {row.canRetry ? <RowAction intent="retry" job={row.uuid} name={row.name} label="Retry" /> : null}
    </JobRowActions>
  )
}

function AlterJobPanel({
  selected,
}: {
  selected: { job: AlterRow; verify: AlterVerify[] | null; verifyError: string | null }
}) {
  const { job, verify, verifyError } = selected
  return (
    <JobDetailPanel
      title={`Alter job ${job.name}`}
      error={job.error}
      actions={<AlterRowActions row={job} isInPanel />}
      details={
        <>
          <DetailList
            entries={[
              ['Status', <StatusCell key="s" row={job} />],
              ['Table', job.table],
              ['Kind', job.kind || '—'],
              ['Rows to alter', job.rowsToAlter === null ? 'Not counted yet' : String(job.rowsToAlter)],
              ['Rows altered', job.rowsAltered === null ? '—' : String(job.rowsAltered)],
              ['Created', <DateTime key="c" value={job.created} />],
              ['Last change', <DateTime key="m" value={job.modified} />],
              ['Created by', job.createdBy ?? '—'],
              ['Job ID', <code key="id">{job.uuid}</code>],
            ]}
          />
          <Heading as="h3" size="sm" mt="4" mb="1">
            SQL
          </Heading>
          <Box
            as="pre"
            fontFamily="mono"
            fontSize="sm"
            bg="bg.muted"
            p="3"
            rounded="md"
            whiteSpace="pre-wrap"
            wordBreak="break-word"
          >
            {job.sql}
          </Box>
        </>
      }
    >
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
    </JobDetailPanel>
  )
}

export const meta: MetaFunction = () => [{ title: 'Alter jobs · Jobs · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({
  title: 'The alter jobs could not be loaded',
  level: 2,
  tryAgain: '/jobs/alter-jobs',
})
