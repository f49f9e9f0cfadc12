import { Box, Text } from '~/components/ui/box'
import { Heading } from '~/components/ui/heading'
import type { SubmissionResult } from '@conform-to/react'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import {
  cancelBatchJob,
  deleteBatchJob,
  getBatchJob,
  listBatchJobs,
  purgeBatchJobs,
  retryBatchJob,
  type BatchJob,
} from '~/api/jobs.server'
import { DateTime } from '~/components/layout/date-time'
import type { RouteHandle } from '~/utils/handle'
import { StatusBadge } from '~/components/data-table/status-badge'
import { DetailList } from '~/components/layout/detail-list'
import { BATCH_STATUSES, RowAction, type JobColumn } from './__job-ui'
import { JobDetailPanel, JobRowActions, JobsListPage } from './__jobs-list'
import { deleteJobAction, intentOf, jobIdOf, loadJobList, purgeJobsAction, runJobAction } from './__jobs.server'
import { routeErrorBoundary } from '~/components/layout/route-error'

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
  ['pool_name', 'Pool'],
  ['sql_transform', 'SQL'],
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
    // Retry resumes after the last stored file; a done job has nothing left to load
    canRetry: ['failed', 'canceled'].includes(job.status),
  }
}
type BatchRow = ReturnType<typeof toRow>

/** The open job's details: the row plus its settings and the first errors. */
function toDetail(job: BatchJob) {
  const settings = job.settings ?? {}
  return {
    ...toRow(job),
    subtype: job.settings?.source?.subtype ?? '',
    credential:
      typeof job.settings?.source?.settings?.credential_id === 'string'
        ? job.settings.source.settings.credential_id
        : null,
    settings: SETTING_LABELS.map(
      ([key, label]) =>
        [
          label,
          settings[key] === undefined || settings[key] === null || settings[key] === '' ? '—' : String(settings[key]),
        ] as [string, string],
    ),
    errors: (job.progress?.errors ?? []).slice(0, 50),
    attempts: (job.status_detail?.attempts ?? []).map((a) => ({
      attempt: a.attempt,
      status: a.status,
      started: a.started ?? null,
      ended: a.ended ?? null,
      filesDone: a.files_done ?? 0,
      rows: a.rows ?? 0,
      rowsRejected: a.rows_rejected ?? 0,
      error: a.error ?? null,
    })),
  }
}

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  return loadJobList(request, api, {
    type: 'batch',
    statuses: BATCH_STATUSES,
    list: listBatchJobs,
    get: getBatchJob,
    toRow,
    toSelected: toDetail,
  })
}

export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const formData = await request.formData()
  const intent = intentOf(formData, INTENTS)

  if (intent === 'purge') return purgeJobsAction(request, formData, 'batch job', () => purgeBatchJobs(api))

  const jobId = jobIdOf(formData)
  switch (intent) {
    case 'cancel':
      return runJobAction(request, () => cancelBatchJob(api, jobId), 'Batch job canceled')
    case 'retry':
      return runJobAction(request, () => retryBatchJob(api, jobId), 'Batch job restarted', { job: jobId })
    default:
      return deleteJobAction(request, jobId, 'Batch job deleted', () => deleteBatchJob(api, jobId))
  }
}

export default function BatchJobsRoute() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>() as { purge?: SubmissionResult<string[]> } | undefined

  const columns: JobColumn<BatchRow>[] = [
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
    {
      key: 'errors',
      header: 'Errors',
      cell: (row) => (row.errorCount || row.error ? <span data-tone="danger">{row.errorCount || 1}</span> : '0'),
    },
    { key: 'files', header: 'Files', cell: (row) => `${row.filesDone} / ${row.filesTotal}` },
    { key: 'created', header: 'Created', cell: (row) => <DateTime value={row.created} /> },
  ]

  return (
    <JobsListPage
      noun="batch job"
      intro="A batch job loads the files under a URL or bucket path into a table through one of its transforms."
      basePath="/jobs/batch-jobs"
      createLabel="Load files with a batch job"
      statuses={BATCH_STATUSES}
      data={data}
      selectedKey={data.selected?.uuid}
      columns={columns}
      actions={(row) => <BatchRowActions row={row} />}
      panel={data.selected ? <BatchJobPanel job={data.selected} /> : null}
      purgeResult={actionData?.purge}
    />
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

function BatchRowActions({ row, isInPanel }: { row: BatchRow; isInPanel?: boolean }) {
  return (
    <JobRowActions job={row} isInPanel={isInPanel}>
      {row.canCancel ? <RowAction intent="cancel" job={row.uuid} name={row.name} label="Cancel" /> : null}
      {row.canRetry ? <RowAction intent="retry" job={row.uuid} name={row.name} label="Retry" /> : null}
    </JobRowActions>
  )
}

function BatchJobPanel({ job }: { job: ReturnType<typeof toDetail> }) {
  const when = (value: string | null) => <DateTime value={value} />
  return (
    <JobDetailPanel
      title={`Batch job ${job.name}`}
      error={job.error}
      actions={<BatchRowActions row={job} isInPanel />}
      details={
        <>
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
        </>
      }
    >
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
      {job.attempts.length > 1 ? (
        <>
          <Heading as="h3" size="sm" mt="4" mb="1" id="attempts">
            Attempts ({job.attempts.length})
          </Heading>
          <Text fontSize="sm" color="fg.muted" mb="1">
            Each Retry resumes after the last file stored; the rows of a file are counted in the attempt that stored
            them.
          </Text>
          {/* the attempts scroll in their own box on a narrow screen */}
          <Box overflowX="auto">
            <Box
              as="table"
              fontSize="sm"
              aria-labelledby="attempts"
              css={{ '& th, & td': { px: '2', py: '1', textAlign: 'left' }, '& td.num': { textAlign: 'right' } }}
            >
              <thead>
                <tr>
                  <th>#</th>
                  <th>Status</th>
                  <th>Started</th>
                  <th>Ended</th>
                  <th>Files</th>
                  <th>Rows loaded</th>
                  <th>Rejected</th>
                  <th>Error</th>
                </tr>
              </thead>
              <tbody>
                {job.attempts.map((a) => (
                  <tr key={a.attempt}>
                    <td className="num">{a.attempt}</td>
                    <td>
                      <StatusBadge status={a.status} />
                    </td>
                    <td>{when(a.started)}</td>
                    <td>{when(a.ended)}</td>
                    <td className="num">{a.filesDone}</td>
                    <td className="num">{a.rows}</td>
                    <td className="num">{a.rowsRejected}</td>
                    <td>{a.error ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </Box>
          </Box>
        </>
      ) : null}
      <Heading as="h3" size="sm" mt="4" mb="1">
        Settings
      </Heading>
      <DetailList entries={job.settings} />
    </JobDetailPanel>
  )
}

export const meta: MetaFunction = () => [{ title: 'Batch jobs · Jobs · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({
  title: 'The batch jobs could not be loaded',
  level: 2,
  tryAgain: '/jobs/batch-jobs',
})
