import type { FormMetadata } from '@conform-to/react'
import { chakra } from '@chakra-ui/react'
import { Box } from '~/components/ui/box'
import { HStack, Stack } from '~/components/ui/stack'
import { Button } from '~/components/ui/button'
import { Form, Link, useNavigation, useRevalidator } from '@remix-run/react'
import { createContext, useContext, useEffect, type ReactNode } from 'react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { dataTableCss, type Column } from '~/components/data-table/data-table'
import { statusBadgeCss } from '~/components/data-table/status-badge'
import { FormCard } from '~/components/forms/form-card'
import { PageHeader } from '~/components/layout/page-header'
import { FormSelect } from '~/components/forms/form-select'
import { CreationGate } from '~/components/layout/creation-gate'

/** Statuses the filters offer; the cluster may answer others, which are shown as they come. */
export const ALTER_STATUSES = ['ready', 'running', 'pending', 'done', 'failed', 'canceled'] as const
export const BATCH_STATUSES = ['ready', 'running', 'done', 'failed', 'canceled'] as const

/** How often a list with running jobs reloads its data (with scripts). */
export const REFRESH_MS = 2000

/**
 * Revalidates the page's loaders every `ms` while `isActive` (a job is running), and stops when
 * it is not. Without scripts the page has a plain Refresh link instead.
 */
export function useAutoRefresh(isActive: boolean, ms = REFRESH_MS) {
  const revalidator = useRevalidator()
  const navigation = useNavigation()
  const isBusy = revalidator.state !== 'idle' || navigation.state !== 'idle'
  useEffect(() => {
    if (!isActive || isBusy) return
    const timer = window.setTimeout(() => revalidator.revalidate(), ms)
    return () => window.clearTimeout(timer)
  }, [isActive, isBusy, ms, revalidator])
}

// What job cells and panels hold, on top of DataTable's look: bars, row buttons and status badges, all plain elements.
export const jobCellsCss = {
  '& code': { fontFamily: 'mono', fontSize: 'xs', wordBreak: 'break-all' },
  '& progress': {
    width: '24',
    height: '2',
    verticalAlign: 'middle',
    mr: '2',
    accentColor: 'var(--chakra-colors-blue-500)',
  },
  '& form': { display: 'inline' },
  '& [data-actions]': { display: 'flex', gap: '1', flexWrap: 'wrap', alignItems: 'center' },
  '& button, & [data-action-link]': {
    px: '2',
    py: '0.5',
    fontSize: 'xs',
    fontWeight: 'medium',
    borderWidth: '1px',
    borderColor: 'border',
    rounded: 'sm',
    bg: 'bg',
    color: 'fg',
    cursor: 'pointer',
    _hover: { bg: 'bg.muted', textDecoration: 'none' },
    _focusVisible: { outline: '2px solid', outlineColor: 'blue.500' },
  },
  '& button[data-tone=primary]': {
    bg: 'blue.solid',
    color: 'white',
    borderColor: 'blue.solid',
    _hover: { bg: 'blue.emphasized' },
  },
  '& [data-tone=danger]': { color: 'red.fg' },
  '& button[aria-busy=true]': { opacity: 0.6, cursor: 'progress' },
  ...statusBadgeCss,
} as const

const tableCss = { ...dataTableCss, ...jobCellsCss }

export type JobColumn<Row> = Column<Row>

/** A panel's wrapper that styles badges, bars and buttons like the list does. */
export function JobPanelBox({ children, label }: { children: ReactNode; label: string }) {
  return (
    <Box
      as="section"
      aria-labelledby={label}
      bg="bg"
      borderWidth="1px"
      borderColor="border"
      rounded="md"
      p="4"
      mb="4"
      // a long path, URL or error without spaces breaks rather than widening the page on a phone
      minW="0"
      overflowWrap="anywhere"
      css={tableCss}
    >
      {children}
    </Box>
  )
}

/**
 * One row action as its own small POST form (`intent`, `job`); with scripts the button shows it
 * is busy while that job's action runs. Never disabled.
 */
/** Per job intent (commit, cancel, retry, delete): why the user may not, null when they may. */
export const JobDeniedContext = createContext<Record<string, string | null | undefined>>({})

export function RowAction({
  intent,
  job,
  name,
  label,
  tone,
}: {
  intent: string
  job: string
  name: string
  label: string
  tone?: 'primary' | 'danger'
}) {
  const navigation = useNavigation()
  const denied = useContext(JobDeniedContext)
  // The list says once, below it, what the user may not do; the row offers only the rest.
  if (denied[intent]) return null
  const isBusy =
    navigation.state !== 'idle' &&
    navigation.formData?.get('intent') === intent &&
    navigation.formData?.get('job') === job
  return (
    <Form method="post">
      <input type="hidden" name="job" value={job} />
      {/* The job's name in the accessible name: a list has one of these per row. */}
      <button
        type="submit"
        name="intent"
        value={intent}
        data-tone={tone}
        aria-busy={isBusy ? 'true' : undefined}
        aria-label={`${label} ${name}`}
      >
        {label}
      </button>
    </Form>
  )
}

/** The status filter: a GET form; with scripts it applies on change. */
export function StatusFilter({
  value,
  statuses,
  keep,
}: {
  value: string
  statuses: readonly string[]
  keep: Record<string, string | undefined>
}) {
  const isHydrated = useHydrated()
  return (
    <Form method="get" onChange={(event) => isHydrated && event.currentTarget.requestSubmit()}>
      {Object.entries(keep).map(([key, kept]) =>
        kept ? <input key={key} type="hidden" name={key} value={kept} /> : null,
      )}
      <HStack gap="2" align="end">
        <Box>
          <chakra.label htmlFor="status-filter" display="block" fontSize="sm" fontWeight="medium" mb="1">
            Status
          </chakra.label>
          <FormSelect size="sm" id="status-filter" name="status" defaultValue={value} key={value}>
            <option value="">All statuses</option>
            {statuses.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </FormSelect>
        </Box>
        <Button type="submit" size="sm" variant="outline">
          Filter
        </Button>
      </HStack>
    </Form>
  )
}

/** Shown on a create form when the org has no table to pick. */
export function NoTablesNote() {
  return (
    <Box role="status" bg="orange.subtle" color="orange.fg" rounded="md" px="3" py="2" mb="4" fontSize="sm">
      There are no tables yet. <Link to="/data/new-table">Create a table</Link> first; a job works on one.
    </Box>
  )
}

/**
 * A create form's page: its heading and intro, then a card with the POST form: form-level errors,
 * a note when the org has no table, `children` (the fields), and the submit and Cancel.
 */
export function NewJobForm<Schema extends Record<string, unknown>>({
  title,
  intro,
  form,
  hasTables,
  denied,
  submit,
  cancelTo,
  children,
}: {
  title: string
  intro: ReactNode
  form: FormMetadata<Schema, string[]>
  hasTables: boolean
  /** Why the user may not create the job (`whyNotCreate` in the loader): the reason instead of the form. */
  denied?: string | null
  submit: { label: string; name?: string; value?: string }
  cancelTo: string
  children: ReactNode
}) {
  return (
    <Stack gap="4" maxW="3xl">
      <PageHeader title={title} description={intro} level={2} mb="0" />
      <CreationGate denied={denied} title={`You cannot create ${title.replace(/^New /, '')}s`}>
        <FormCard form={form} submit={submit} cancelTo={cancelTo}>
          {hasTables ? null : <NoTablesNote />}
          {children}
        </FormCard>
      </CreationGate>
    </Stack>
  )
}
