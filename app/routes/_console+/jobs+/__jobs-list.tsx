import { CreateLink } from '~/components/layout/create-link'
import { GuardedLink } from '~/components/layout/denied'
import { Box, Text } from '~/components/ui/box'
import { HStack } from '~/components/ui/stack'
import { Button } from '~/components/ui/button'
import type { SubmissionResult } from '@conform-to/react'
import { Link, useLocation, useSearchParams } from '@remix-run/react'
import { useContext, type ReactNode } from 'react'
import { ListPage } from '~/components/data-table/list-page'
import { ConfirmPanel } from '~/components/forms/confirm-panel'
import { FocusHeading } from '~/components/layout/focus-heading'
import { InlineAlert } from '~/components/layout/inline-alert'
import { useHrefWith } from '~/utils/use-href-with'
import { jobCellsCss, JobDeniedContext, JobPanelBox, StatusFilter, useAutoRefresh, type JobColumn } from './__job-ui'
import { useHydrated } from 'remix-utils/use-hydrated'

/** How often a list with running jobs reloads itself when scripts are off. */
const NO_SCRIPT_REFRESH_SECONDS = 10

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
  /** Per intent of the job type (commit for alter jobs; cancel, retry, delete): why the user may not, null when they may. */
  denied: Record<string, string | null>
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
  const isHydrated = useHydrated()
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

  const withheld = Object.entries(data.denied).filter(([, reason]) => reason)
  return (
    <JobDeniedContext.Provider value={data.denied}>
      <ListPage
        level={2}
        title={title}
        description={intro}
        actions={
          <>
            <Button asChild size="sm" variant="ghost">
              <Link to={`${location.pathname}${location.search}`} reloadDocument>
                Refresh
              </Link>
            </Button>
            <GuardedLink to={hrefWith({ purge: '', delete: null })} reason={data.denied.delete} colorPalette="red">
              Purge finished jobs…
            </GuardedLink>
            <CreateLink to={`${basePath}/create`} colorPalette="blue">{`New ${noun}`}</CreateLink>
          </>
        }
        filter={
          <HStack justify="space-between" align="end" wrap="wrap" gap="3">
            <StatusFilter
              value={data.status}
              statuses={statuses}
              keep={{ pageSize: searchParams.get('pageSize') ?? undefined }}
            />
            {data.isAnyActive ? (
              <Text fontSize="sm" color="fg.muted" role="status">
                {isHydrated
                  ? 'Jobs are running: this list refreshes itself (or use Refresh).'
                  : `Jobs are running: this page reloads every ${NO_SCRIPT_REFRESH_SECONDS} seconds until they finish.`}
                {/* Without scripts the browser reloads the page itself; with them this is inert text. */}
                <noscript>
                  <meta httpEquiv="refresh" content={String(NO_SCRIPT_REFRESH_SECONDS)} />
                </noscript>
              </Text>
            ) : null}
          </HStack>
        }
        caption={title}
        columns={allColumns}
        rows={data.rows}
        rowKey={(row) => row.uuid}
        selectedKey={selectedKey ?? searchParams.get('job')}
        css={jobCellsCss}
        empty={{ message: `No ${noun}s yet.`, action: { to: `${basePath}/create`, label: createLabel } }}
        noMatch={{ message: `No ${data.status} ${noun}s.`, clearTo: basePath, clearLabel: 'Show all statuses' }}
        isFiltered={Boolean(data.status)}
        afterTable={
          withheld.length ? (
            <Text fontSize="sm" color="fg.muted">
              Not offered to you: {withheld.map(([intent, reason]) => `${intent} (${reason})`).join(', ')}.
            </Text>
          ) : null
        }
        paging={data}
        noun="jobs"
      >
        {data.isPurging ? (
          <ConfirmPanel
            id="purge-jobs"
            title={`Purge finished ${noun}s?`}
            intent="purge"
            confirmLabel="Purge jobs"
            deniedReason={data.denied.delete}
            stepParam="purge"
            force={{ lastResult: purgeResult }}
          >
            Every failed, canceled, unknown and done {noun} is removed
            {data.finishedCount === null ? '' : ` (${data.finishedCount} now)`}. Jobs that are ready, running or pending
            stay. This cannot be undone.
          </ConfirmPanel>
        ) : null}
        {data.deleting ? (
          <ConfirmPanel
            id="delete-job"
            title={`Delete ${noun} ${data.deleting.name}?`}
            intent="delete"
            hiddenFields={{ job: data.deleting.uuid }}
            confirmLabel="Delete job"
            deniedReason={data.denied.delete}
          >
            The job and its record are removed. Data it already changed or loaded stays. This cannot be undone.
          </ConfirmPanel>
        ) : null}
        {panel ??
          (data.selectedMissing ? (
            <JobPanelBox label="missing-job-heading">
              <FocusHeading id="missing-job-heading">Job not found</FocusHeading>
              <Text>
                This {noun} no longer exists. <Link to={hrefWith({ job: null })}>Close</Link>
              </Text>
            </JobPanelBox>
          ) : null)}
      </ListPage>
    </JobDeniedContext.Provider>
  )
}

/**
 * A job's actions, in its row or its panel: View (rows only), the type's own POST buttons
 * (`children`), then Delete… (a link to the confirmation) unless `canDelete` is false.
 */
export function JobRowActions({
  job,
  isInPanel,
  canDelete = true,
  children,
}: {
  job: JobRow
  isInPanel?: boolean
  canDelete?: boolean
  children: ReactNode
}) {
  const hrefWith = useHrefWith()
  const denied = useContext(JobDeniedContext)
  return (
    <div data-actions="">
      {isInPanel ? null : (
        <Link
          to={hrefWith({ job: job.uuid, delete: null, purge: null })}
          data-action-link=""
          aria-label={`View ${job.name}`}
        >
          View
        </Link>
      )}
      {children}
      {canDelete && !denied.delete ? (
        <Link
          to={hrefWith({ delete: job.uuid, purge: null })}
          data-action-link=""
          data-tone="danger"
          aria-label={`Delete ${job.name}…`}
        >
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
      {error ? <InlineAlert mt="3">{error}</InlineAlert> : null}
      {children}
      <Box mt="4">{actions}</Box>
    </JobPanelBox>
  )
}
