import { Box, Button, HStack, Link as ChakraLink, Stack, Text } from '@chakra-ui/react'
import type { SubmissionResult } from '@conform-to/react'
import { Link, useLocation, useSearchParams } from '@remix-run/react'
import type { ReactNode } from 'react'
import { Pagination } from '~/components/data-table/pagination'
import {
  DeleteJobPanel,
  FocusHeading,
  JobPanelBox,
  JobsTable,
  PageIntro,
  PurgePanel,
  StatusFilter,
  useAutoRefresh,
  useHrefWith,
  type JobColumn,
} from './__job-ui'

type JobRow = { uuid: string; name: string }

/** What `loadJobList` answers, less the open job (each list shows its own panel). */
type JobListData<Row extends JobRow> = {
  rows: Row[]
  total: number
  page: number
  pageCount: number
  pageSize: number
  status: string
  selectedMissing: boolean
  deleting: { uuid: string; name: string } | null
  isPurging: boolean
  finishedCount: number | null
  isAnyActive: boolean
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

/**
 * A job list page: heading, Refresh, Purge and New buttons, the purge and delete confirmations, the
 * open job's `panel` (or "Job not found"), the status filter and the table with paging. `columns`
 * are the type's own: the job's name (a link that opens it) comes first and `actions` last.
 */
export function JobsListPage<Row extends JobRow>({
  noun,
  intro,
  basePath,
  createLabel,
  statuses,
  data,
  selectedKey,
  columns,
  actions,
  panel,
  purgeResult,
}: {
  /** The job type in words, singular and lower case: "alter job". */
  noun: string
  intro: string
  basePath: string
  /** The empty list's link to the create form. */
  createLabel: string
  statuses: readonly string[]
  data: JobListData<Row>
  selectedKey: string | undefined
  columns: JobColumn<Row>[]
  actions: (row: Row) => ReactNode
  panel: ReactNode
  purgeResult: SubmissionResult<string[]> | undefined
}) {
  const [searchParams] = useSearchParams()
  const location = useLocation()
  const hrefWith = useHrefWith()
  useAutoRefresh(data.isAnyActive)
  const title = `${capitalize(noun)}s`

  const allColumns: JobColumn<Row>[] = [
    {
      key: 'job',
      header: 'Job',
      isRowHeader: true,
      cell: (row) => <Link to={hrefWith({ job: row.uuid, delete: null, purge: null })}>{row.name}</Link>,
    },
    ...columns,
    { key: 'actions', header: 'Actions', cell: actions },
  ]

  return (
    <Stack gap="4">
      <HStack justify="space-between" wrap="wrap" gap="3" align="end">
        <PageIntro title={title} intro={intro} />
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
            <Link to={`${basePath}/create`}>New {noun}</Link>
          </Button>
        </HStack>
      </HStack>

      {data.isPurging ? (
        <PurgePanel kind={noun} finishedCount={data.finishedCount} lastResult={purgeResult} cancelHref={hrefWith({ purge: null })} />
      ) : null}
      {data.deleting ? <DeleteJobPanel job={data.deleting} kind={noun} cancelHref={hrefWith({ delete: null })} /> : null}
      {panel ??
        (data.selectedMissing ? (
          <JobPanelBox label="missing-job-heading">
            <FocusHeading id="missing-job-heading">Job not found</FocusHeading>
            <Text>
              This {noun} no longer exists. <Link to={hrefWith({ job: null })}>Close</Link>
            </Text>
          </JobPanelBox>
        ) : null)}

      <HStack justify="space-between" align="end" wrap="wrap" gap="3">
        <StatusFilter value={data.status} statuses={statuses} keep={{ pageSize: searchParams.get('pageSize') ?? undefined }} />
        {data.isAnyActive ? (
          <Text fontSize="sm" color="fg.muted" role="status">
            Jobs are running: this list refreshes itself (or use Refresh).
          </Text>
        ) : null}
      </HStack>

      <JobsTable
        caption={title}
        columns={allColumns}
        rows={data.rows}
        rowKey={(row) => row.uuid}
        selectedKey={selectedKey ?? searchParams.get('job')}
        empty={
          data.status ? (
            <>
              <Text mb="2">
                No {data.status} {noun}s.
              </Text>
              <ChakraLink asChild color="blue.600">
                <Link to={basePath}>Show all statuses</Link>
              </ChakraLink>
            </>
          ) : (
            <>
              <Text mb="2">No {noun}s yet.</Text>
              <ChakraLink asChild color="blue.600">
                <Link to={`${basePath}/create`}>{createLabel}</Link>
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

/**
 * A job's actions, in its row or its panel: View (rows only), the type's own POST buttons
 * (`children`), then Delete… (a link to the confirmation) unless `canDelete` is false.
 */
export function JobRowActions({ job, isInPanel, canDelete = true, children }: { job: JobRow; isInPanel?: boolean; canDelete?: boolean; children: ReactNode }) {
  const hrefWith = useHrefWith()
  return (
    <div data-actions="">
      {isInPanel ? null : (
        <Link to={hrefWith({ job: job.uuid, delete: null, purge: null })} data-action-link="" aria-label={`View ${job.name}`}>
          View
        </Link>
      )}
      {children}
      {canDelete ? (
        <Link to={hrefWith({ delete: job.uuid, purge: null })} data-action-link="" data-tone="danger" aria-label={`Delete ${job.name}…`}>
          Delete…
        </Link>
      ) : null}
    </div>
  )
}

/** The open job's panel: its heading with Close, `details`, its error if any, `children` (more sections), then `actions`. */
export function JobDetailPanel({
  title,
  details,
  error,
  actions,
  children,
}: {
  title: string
  details: ReactNode
  error: string | null
  actions: ReactNode
  children?: ReactNode
}) {
  const hrefWith = useHrefWith()
  return (
    <JobPanelBox label="job-heading">
      <HStack justify="space-between" align="start" wrap="wrap">
        <FocusHeading id="job-heading">{title}</FocusHeading>
        <Link to={hrefWith({ job: null })}>Close</Link>
      </HStack>
      {details}
      {error ? (
        <Box role="alert" mt="3" bg="red.subtle" color="red.fg" p="3" rounded="md" fontSize="sm">
          {error}
        </Box>
      ) : null}
      {children}
      <Box mt="4">{actions}</Box>
    </JobPanelBox>
  )
}
