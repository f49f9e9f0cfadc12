import { getFormProps, getInputProps, useForm, type FormMetadata, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Box, Button, chakra, Heading, HStack, Input, Stack, Text } from '@chakra-ui/react'
import { Form, Link, useLocation, useNavigation, useRevalidator } from '@remix-run/react'
import { useEffect, useRef, type ReactNode } from 'react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { DataTable, dataTableCss, type Column } from '~/components/data-table/data-table'
import { ErrorList } from '~/components/forms/error-list'
import { FormErrors } from '~/components/forms/form-errors'
import { SubmitButton } from '~/components/forms/submit-button'
import { FORCE_WORD, JOB_MESSAGES } from '~/schemas/job'
import { z } from 'zod'

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

/** The current URL with some parameters changed (null removes one). */
export function useHrefWith() {
  const location = useLocation()
  return (changes: Record<string, string | null>) => {
    const params = new URLSearchParams(location.search)
    params.delete('index')
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) params.delete(key)
      else params.set(key, value)
    }
    const search = params.toString()
    return `${location.pathname}${search ? `?${search}` : ''}`
  }
}

const STATUS_COLORS: Record<string, string> = {
  ready: 'gray',
  running: 'blue',
  pending: 'orange',
  done: 'green',
  failed: 'red',
  canceled: 'yellow',
  unknown: 'gray',
}

// What job cells and panels hold, on top of DataTable's look: bars, row buttons and status badges, all plain elements.
const jobCellsCss = {
  '& code': { fontFamily: 'mono', fontSize: 'xs', wordBreak: 'break-all' },
  '& progress': { width: '24', height: '2', verticalAlign: 'middle', mr: '2', accentColor: 'var(--chakra-colors-blue-500)' },
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
  '& button[data-tone=primary]': { bg: 'blue.solid', color: 'white', borderColor: 'blue.solid', _hover: { bg: 'blue.emphasized' } },
  '& [data-tone=danger]': { color: 'red.fg' },
  '& button[aria-busy=true]': { opacity: 0.6, cursor: 'progress' },
  '& [data-status]': { display: 'inline-block', px: '1.5', rounded: 'sm', fontSize: 'xs', fontWeight: 'medium', bg: 'gray.subtle', color: 'gray.fg' },
  // After the base rule: same specificity, so the later colour wins.
  ...Object.fromEntries(
    Object.entries(STATUS_COLORS).map(([status, color]) => [
      `& [data-status=${status}]`,
      { bg: `${color}.subtle`, color: `${color}.fg` },
    ]),
  ),
} as const

const tableCss = { ...dataTableCss, ...jobCellsCss }

export type JobColumn<Row> = Column<Row>

/** A server-rendered job list (DataTable with the job cells' look); the open or new job's row is `selectedKey`. */
export function JobsTable<Row>(props: Omit<Parameters<typeof DataTable<Row>>[0], 'css'>) {
  return <DataTable {...props} css={jobCellsCss} />
}

/** A status as a small coloured label (styled by the list's or panel's container). */
export function StatusBadge({ status }: { status: string }) {
  return <span data-status={status}>{status}</span>
}

/** A panel's wrapper that styles badges, bars and buttons like the list does. */
export function JobPanelBox({ children, label, tone }: { children: ReactNode; label: string; tone?: 'danger' }) {
  return (
    <Box
      as="section"
      aria-labelledby={label}
      bg={tone === 'danger' ? 'red.subtle' : 'bg'}
      borderWidth="1px"
      borderColor={tone === 'danger' ? 'red.muted' : 'border'}
      rounded="md"
      p="4"
      mb="4"
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
export function RowAction({ intent, job, name, label, tone }: { intent: string; job: string; name: string; label: string; tone?: 'primary' | 'danger' }) {
  const navigation = useNavigation()
  const isBusy = navigation.state !== 'idle' && navigation.formData?.get('intent') === intent && navigation.formData?.get('job') === job
  return (
    <Form method="post">
      <input type="hidden" name="job" value={job} />
      {/* The job's name in the accessible name: a list has one of these per row. */}
      <button type="submit" name="intent" value={intent} data-tone={tone} aria-busy={isBusy ? 'true' : undefined} aria-label={`${label} ${name}`}>
        {label}
      </button>
    </Form>
  )
}

/** A heading that takes focus when it appears without a reload (with scripts), so it is read out. */
export function FocusHeading({ id, children }: { id: string; children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null)
  useEffect(() => ref.current?.focus(), [])
  return (
    <Heading as="h2" id={id} size="md" mb="2" ref={ref} tabIndex={-1} outline="none">
      {children}
    </Heading>
  )
}

/** The delete confirmation: a real POST form, the same with and without scripts. */
export function DeleteJobPanel({ job, kind, cancelHref }: { job: { uuid: string; name: string }; kind: string; cancelHref: string }) {
  return (
    <JobPanelBox label="delete-job-heading" tone="danger">
      <FocusHeading id="delete-job-heading">
        Delete {kind} {job.name}?
      </FocusHeading>
      <Text mb="3">The job and its record are removed. Data it already changed or loaded stays. This cannot be undone.</Text>
      <Form method="post">
        <input type="hidden" name="job" value={job.uuid} />
        <ConfirmButtons intent="delete" label="Delete job" cancelHref={cancelHref} />
      </Form>
    </JobPanelBox>
  )
}

/** A danger confirmation's buttons: the submit (`intent`) and a Cancel link back. */
function ConfirmButtons({ intent, label, cancelHref, mt }: { intent: string; label: string; cancelHref: string; mt?: string }) {
  return (
    <HStack gap="3" mt={mt}>
      <SubmitButton name="intent" value={intent} colorPalette="red" size="sm">
        {label}
      </SubmitButton>
      <Button asChild variant="outline" size="sm">
        <Link to={cancelHref}>Cancel</Link>
      </Button>
    </HStack>
  )
}

const PurgeClientSchema = z.object({
  confirm: z.string({ error: JOB_MESSAGES.forceRequired }).refine((text) => text === FORCE_WORD, { error: JOB_MESSAGES.forceRequired }),
})

/** Purge, a force operation: the user types FORCE, then the POST clears the finished jobs. */
export function PurgePanel({
  kind,
  finishedCount,
  lastResult,
  cancelHref,
}: {
  kind: string
  finishedCount: number | null
  lastResult?: SubmissionResult<string[]>
  cancelHref: string
}) {
  const [form, fields] = useForm({
    id: 'purge-jobs',
    lastResult,
    constraint: getZodConstraint(PurgeClientSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PurgeClientSchema }),
  })
  const input = getInputProps(fields.confirm, { type: 'text' })
  return (
    <JobPanelBox label="purge-heading" tone="danger">
      <FocusHeading id="purge-heading">Purge finished {kind}s?</FocusHeading>
      <Text mb="3">
        Every failed, canceled, unknown and done {kind} is removed
        {finishedCount === null ? '' : ` (${finishedCount} now)`}. Jobs that are ready, running or pending stay. This cannot
        be undone.
      </Text>
      <Form method="post" {...getFormProps(form)}>
        <chakra.label htmlFor={fields.confirm.id} display="block" fontWeight="medium" fontSize="sm" mb="1">
          Type {FORCE_WORD} to confirm
        </chakra.label>
        <Input {...input} key={input.key} autoComplete="off" maxW="xs" bg="bg" size="sm" />
        <ErrorList id={fields.confirm.errorId} errors={fields.confirm.errors} />
        <ConfirmButtons intent="purge" label="Purge jobs" cancelHref={cancelHref} mt="3" />
      </Form>
    </JobPanelBox>
  )
}

/** The status filter: a GET form; with scripts it applies on change. */
export function StatusFilter({ value, statuses, keep }: { value: string; statuses: readonly string[]; keep: Record<string, string | undefined> }) {
  const isHydrated = useHydrated()
  return (
    <Form method="get" onChange={(event) => isHydrated && event.currentTarget.requestSubmit()}>
      {Object.entries(keep).map(([key, kept]) => (kept ? <input key={key} type="hidden" name={key} value={kept} /> : null))}
      <HStack gap="2" align="end">
        <Box>
          <chakra.label htmlFor="status-filter" display="block" fontSize="sm" fontWeight="medium" mb="1">
            Status
          </chakra.label>
          <chakra.select
            id="status-filter"
            name="status"
            defaultValue={value}
            key={value}
            h="8"
            px="2"
            borderWidth="1px"
            borderColor="border"
            rounded="l2"
            bg="bg"
            fontSize="sm"
          >
            <option value="">All statuses</option>
            {statuses.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </chakra.select>
        </Box>
        <Button type="submit" size="sm" variant="outline">
          Filter
        </Button>
      </HStack>
    </Form>
  )
}

/** Label/value pairs for a job's detail panel. */
export function DetailList({ entries }: { entries: [string, ReactNode][] }) {
  return (
    <chakra.dl display="grid" gridTemplateColumns={{ base: '1fr', md: '12rem 1fr' }} columnGap="4" rowGap="1.5" fontSize="sm">
      {entries.map(([label, value]) => (
        <Box key={label} display="contents">
          <chakra.dt color="fg.muted">{label}</chakra.dt>
          <chakra.dd m="0">{value}</chakra.dd>
        </Box>
      ))}
    </chakra.dl>
  )
}

/** A jobs page's error boundary body: the catalogue message under the section's own h1 (so an h2). */
export function JobsErrorPanel({ title, message, back }: { title: string; message: string; back: { to: string; label: string } }) {
  return (
    <Box role="alert" bg="bg" borderWidth="1px" borderColor="red.muted" rounded="lg" p="6" maxW="3xl">
      <Heading as="h2" size="md" mb="2" color="red.fg">
        {title}
      </Heading>
      <Text mb="3">{message}</Text>
      <Link to={back.to}>{back.label}</Link>
    </Box>
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

/** A jobs page's h2 (under the section's h1) and the line that says what it is for. */
export function PageIntro({ title, intro }: { title: string; intro: ReactNode }) {
  return (
    <Box>
      <Heading as="h2" size="md">
        {title}
      </Heading>
      <Text color="fg.muted" fontSize="sm">
        {intro}
      </Text>
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
  submit,
  cancelTo,
  children,
}: {
  title: string
  intro: ReactNode
  form: FormMetadata<Schema, string[]>
  hasTables: boolean
  submit: { label: string; name?: string; value?: string }
  cancelTo: string
  children: ReactNode
}) {
  return (
    <Stack gap="4" maxW="3xl">
      <PageIntro title={title} intro={intro} />
      <Box bg="bg" borderWidth="1px" rounded="md" p="6">
        <Form method="post" {...getFormProps(form)}>
          <FormErrors id={form.errorId} errors={form.errors} />
          {hasTables ? null : <NoTablesNote />}
          {children}
          <HStack gap="3" mt="2">
            <SubmitButton name={submit.name} value={submit.value}>
              {submit.label}
            </SubmitButton>
            <Button asChild variant="outline">
              <Link to={cancelTo}>Cancel</Link>
            </Button>
          </HStack>
        </Form>
      </Box>
    </Stack>
  )
}
