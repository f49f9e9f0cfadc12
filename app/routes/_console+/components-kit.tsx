import { type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Box, Text } from '~/components/ui/box'
import { Stack } from '~/components/ui/stack'
import { Button } from '~/components/ui/button'
import { Heading } from '~/components/ui/heading'
import { Link as ChakraLink } from '~/components/ui/link'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData, useSearchParams } from '@remix-run/react'
import type { ReactNode } from 'react'
import type { z } from 'zod'
import { DataTable, type Column } from '~/components/data-table/data-table'
import { EmptyState } from '~/components/data-table/empty-state'
import { FilterForm } from '~/components/data-table/filter-form'
import { Pagination } from '~/components/data-table/pagination'
import { listPage, parsePaging } from '~/components/data-table/paging'
import { StatusBadge, statusBadgeCss } from '~/components/data-table/status-badge'
import { CheckboxField } from '~/components/forms/checkbox-field'
import { ConfirmPanel } from '~/components/forms/confirm-panel'
import { Field, TextareaField } from '~/components/forms/field'
import { FormCard } from '~/components/forms/form-card'
import { SelectField } from '~/components/forms/select-field'
import { SubmitButton } from '~/components/forms/submit-button'
import { DetailList } from '~/components/layout/detail-list'
import { PageHeader } from '~/components/layout/page-header'
import { InlineAlert } from '~/components/layout/inline-alert'
import { ErrorPanel, RouteErrorBoundary } from '~/components/layout/route-error'
import { SectionCard } from '~/components/layout/section-card'
import { SectionTabs } from '~/components/layout/section-tabs'
import { ForceConfirmSchema } from '~/schemas/confirm'
import { requireSession } from '~/utils/session.server'
import { redirectWithToast } from '~/utils/toast.server'
import { useLazySchemaForm, type FormConstraint } from '~/components/forms/use-lazy-schema-form'
import { SampleFormSchema } from './__components-kit-schema'

/*
 * The living catalogue of the shared components in app/components, each in its states, rendered by
 * the server and usable without scripts. Its forms post here, and the action only validates: it
 * answers with the same errors a real page would, or a toast saying nothing was changed.
 */

const KIT_PATH = '/components-kit'

const INTENTS = {
  delete: 'kit-delete',
  purge: 'kit-purge',
  purgeWithError: 'kit-purge-error',
  form: 'kit-form',
  formWithErrors: 'kit-form-errors',
} as const

const KINDS = [
  { value: 'turbine', label: 'Turbine' },
  { value: 'summary', label: 'Summary' },
]

const SAMPLE_STATUSES = ['ready', 'running', 'pending', 'done', 'failed', 'canceled', 'unknown'] as const

const SAMPLE_ROWS = [
  'web_logs',
  'cdn_logs',
  'api_requests',
  'auth_events',
  'billing_events',
  'dns_queries',
  'firewall_logs',
  'k8s_events',
  'metrics_1m',
  'metrics_1h',
  'nginx_access',
  'payments',
  'search_clicks',
  'traces',
].map((name, index) => ({
  uuid: `sample-${index + 1}`,
  name,
  project: index % 3 === 0 ? 'sample' : 'observability',
  status: SAMPLE_STATUSES[index % SAMPLE_STATUSES.length]!,
}))
type SampleRow = (typeof SAMPLE_ROWS)[number]

/** The reply a real action gives for `fields` sent to `schema`: what the error examples show. */
function replyFor<Schema extends z.ZodTypeAny>(schema: Schema, fields: Record<string, string>, formErrors?: string[]) {
  const formData = new FormData()
  for (const [name, value] of Object.entries(fields)) formData.set(name, value)
  return parseWithZod(formData, { schema }).reply(formErrors ? { formErrors } : undefined)
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSession(request)
  const paging = parsePaging(new URL(request.url), 10)
  const needle = paging.q.toLowerCase()
  return {
    ...listPage(
      SAMPLE_ROWS.filter((row) => row.name.includes(needle) || row.project.includes(needle)),
      paging,
    ),
    // The error states, as the server would answer them.
    forceError: replyFor(ForceConfirmSchema, { confirm: 'force' }),
    formErrors: replyFor(
      SampleFormSchema,
      { name: 'Web Logs', description: 'Typed before the errors', owner: 'admin@example.com' },
      ['The cluster refused the request: a table named web_logs already exists in project sample'],
    ),
    // A form's HTML constraints come from the loader: its schema loads after hydration (decisions 032, 077).
    sampleConstraint: getZodConstraint(SampleFormSchema),
  }
}

export async function action({ request }: ActionFunctionArgs) {
  await requireSession(request)
  const formData = await request.formData()
  const intent = formData.get('intent')
  const schema =
    intent === INTENTS.purge || intent === INTENTS.purgeWithError
      ? ForceConfirmSchema
      : intent === INTENTS.form || intent === INTENTS.formWithErrors
        ? SampleFormSchema
        : intent === INTENTS.delete
          ? null
          : undefined
  if (schema === undefined) throw data({ message: 'Unknown action' }, { status: 400 })
  if (schema) {
    const submission = parseWithZod(formData, { schema })
    if (submission.status !== 'success')
      return data({ intent: String(intent), result: submission.reply() }, { status: 400 })
  }
  return redirectWithToast(KIT_PATH, {
    title: 'Confirmed. Nothing was changed: forms on this page only show their round trip.',
    type: 'success',
  })
}

const SECTIONS = [
  { id: 'page-header', title: 'Page heading' },
  { id: 'confirm-panel', title: 'Confirm panel' },
  { id: 'detail-list', title: 'Detail list' },
  { id: 'form-card', title: 'Form card and fields' },
  { id: 'field-errors', title: 'Fields with errors' },
  { id: 'filter-form', title: 'Filter form' },
  { id: 'data-table', title: 'Data table' },
  { id: 'empty-state', title: 'Empty state' },
  { id: 'pagination', title: 'Pagination' },
  { id: 'section-tabs', title: 'Section tabs' },
  { id: 'section-card', title: 'Section card' },
  { id: 'status-badges', title: 'Status badges' },
  { id: 'error-panel', title: 'Error panel' },
  { id: 'inline-alert', title: 'Inline alert' },
  { id: 'themes', title: 'Themes' },
] as const
type SectionId = (typeof SECTIONS)[number]['id']

// Under a section's h2, and several on one page: none takes focus.
const KIT_PANEL = { level: 3, isFocusedOnShow: false } as const

const columns: Column<SampleRow>[] = [
  {
    key: 'name',
    header: 'Name',
    isRowHeader: true,
    cell: (row) => <Link to={`${KIT_PATH}?selected=${row.uuid}#data-table`}>{row.name}</Link>,
  },
  { key: 'project', header: 'Project', cell: (row) => row.project },
  { key: 'status', header: 'Status', cell: (row) => <StatusBadge status={row.status} /> },
]

export default function ComponentsKitRoute() {
  const loaderData = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [searchParams] = useSearchParams()
  /** The action's reply for the form that sent `intent`, else `fallback`. */
  const resultFor = (intent: string, fallback?: SubmissionResult<string[]>) =>
    actionData?.intent === intent ? actionData.result : fallback
  const tab = searchParams.get('tab') ?? 'first'

  return (
    <Stack gap="8" maxW="5xl">
      <PageHeader
        title="Components kit"
        description={
          'Every shared component in app/components, in its states. Copy from here; when a section ' +
          'needs something new, add it to app/components and to this page.'
        }
        mb="0"
      />
      <Box as="nav" aria-label="On this page" fontSize="sm">
        <Box as="ul" display="flex" flexWrap="wrap" gap="3" listStyleType="none" m="0" p="0">
          {SECTIONS.map((section) => (
            <li key={section.id}>
              <ChakraLink href={`#${section.id}`} color="link">
                {section.title}
              </ChakraLink>
            </li>
          ))}
        </Box>
      </Box>

      <KitSection
        id="page-header"
        note={
          "Every page starts with one (this page's own heading is one): the title, a line on what " +
          "the page is for, and its actions. Under a section's own h1, as on the Jobs tabs, use level={2}."
        }
      >
        <Example title="With a parent line, a description and actions">
          <PageHeader
            level={3}
            eyebrow="Project sample"
            title="web_logs"
            description="Web server access logs, one row a request."
            mb="0"
            actions={
              <Button asChild size="sm" variant="outline">
                <Link to={KIT_PATH}>Query this table</Link>
              </Button>
            }
          />
        </Example>
      </KitSection>

      <KitSection
        id="confirm-panel"
        note={
          'Every destructive step: opened by a URL parameter on the page that shows the item ' +
          "(?delete=<id>), a POST form with a hidden intent and the item's id, and Cancel back to " +
          'the same URL without the parameter. Add force where data is lost for good.'
        }
      >
        <ConfirmPanel
          id="kit-delete"
          {...KIT_PANEL}
          title="Delete sample item web_logs?"
          intent={INTENTS.delete}
          hiddenFields={{ item: 'sample-1' }}
          confirmLabel="Delete sample item"
        >
          A plain confirmation: the item goes, nothing else. (Here nothing is deleted.)
        </ConfirmPanel>
        <ConfirmPanel
          id="kit-purge"
          {...KIT_PANEL}
          title="Purge finished sample jobs?"
          intent={INTENTS.purge}
          confirmLabel="Purge sample jobs"
          stepParam="purge"
          force={{ lastResult: resultFor(INTENTS.purge) }}
        >
          With a typed FORCE: the browser (with scripts) and the action check it with the same schema.
        </ConfirmPanel>
        <ConfirmPanel
          id="kit-purge-error"
          {...KIT_PANEL}
          title="Drop sample table web_logs?"
          intent={INTENTS.purgeWithError}
          confirmLabel="Drop sample table"
          force={{ lastResult: resultFor(INTENTS.purgeWithError, loaderData.forceError) }}
        >
          After a wrong word was typed: the field shows its error and keeps what was typed.
        </ConfirmPanel>
      </KitSection>

      <KitSection
        id="detail-list"
        note={
          "One item's label/value pairs on a detail page or panel. Values may be elements: code, " +
          'badges, times (wrap a time in a span with suppressHydrationWarning: Local time differs ' +
          'between server and browser).'
        }
      >
        <DetailList
          entries={[
            ['Table ID', <code key="id">0f8e6a52-4b1c-4f61-9a55-2b8f1c7e9d10</code>],
            ['Project', 'sample'],
            [
              'Status',
              <Box as="span" key="status" css={statusBadgeCss}>
                <StatusBadge status="running" />
              </Box>,
            ],
            ['Primary key', '—'],
          ]}
        />
      </KitSection>

      <KitSection
        id="form-card"
        note={
          'The card around every create and edit form: form-level errors on top, the fields, then ' +
          'the submit button and Cancel. Fields are wired to conform: errors under the field, ' +
          "aria-invalid and aria-describedby set. Send it empty to see the server's answer."
        }
      >
        <SampleForm id={INTENTS.form} constraint={loaderData.sampleConstraint} lastResult={resultFor(INTENTS.form)} />
        <Example title="A submit button while its form is sending">
          <Text fontSize="sm" color="fg.muted" mb="2">
            SubmitButton shows this by itself while its form posts (with scripts); the bar across the top of the page
            (PendingIndicator) shows any navigation.
          </Text>
          <SubmitButton isPending type="button">
            Save sample
          </SubmitButton>
        </Example>
      </KitSection>

      <KitSection
        id="field-errors"
        note={
          "What a form looks like after the action refused it: the cluster's message as a form " +
          "error, each field's own error, and everything typed kept."
        }
      >
        <SampleForm
          id={INTENTS.formWithErrors}
          constraint={loaderData.sampleConstraint}
          lastResult={resultFor(INTENTS.formWithErrors, loaderData.formErrors)}
        />
      </KitSection>

      <KitSection
        id="filter-form"
        note="A GET form that puts the filter in the URL (?q=), keeps the page size and goes back to page 1. Try it on the table below."
      >
        <FilterForm
          label="Filter by sample name or project"
          value={loaderData.q}
          keep={{ pageSize: searchParams.get('pageSize') ?? undefined }}
        />
      </KitSection>

      <KitSection
        id="data-table"
        note={
          'A server-rendered table: a caption, a row header that links to the item, plain elements ' +
          'in cells. With no rows it shows its empty state, which says what to do next.'
        }
      >
        <Example title="With rows">
          <DataTable
            caption="Sample items"
            columns={columns}
            rows={loaderData.rows}
            rowKey={(row) => row.uuid}
            selectedKey={searchParams.get('selected')}
            css={statusBadgeCss}
            empty={
              <EmptyState
                message="No sample items yet."
                filter={{ message: `No sample items match “${loaderData.q}”.`, clearTo: KIT_PATH }}
              />
            }
          />
        </Example>
        <Example title="Empty">
          <DataTable
            caption="No items"
            columns={columns}
            rows={[]}
            rowKey={(row) => row.uuid}
            empty={
              <EmptyState message="No sample items yet." action={{ to: KIT_PATH, label: 'Create the first one' }} />
            }
          />
        </Example>
      </KitSection>

      <KitSection
        id="empty-state"
        note={
          "What every list shows with no rows, inside its table's card: what to do next as a link. " +
          'With a filter on it says nothing matched and links to clear the filter instead.'
        }
      >
        <Example title="Nothing yet">
          <EmptyState message="No tables yet." action={{ to: '/data/new-table', label: 'Create your first table' }} />
        </Example>
        <Example title="Nothing matches the filter">
          <EmptyState
            message="No tables yet."
            action={{ to: '/data/new-table', label: 'Create your first table' }}
            filter={{ message: 'No tables match “nginx”.', clearTo: KIT_PATH }}
          />
        </Example>
      </KitSection>

      <KitSection
        id="pagination"
        note={
          'Previous and next links, the range shown and the rows per page, all in the URL: every ' +
          'other parameter is kept. Without scripts the size applies with its button. An empty list shows none.'
        }
      >
        <Pagination
          page={loaderData.page}
          pageCount={loaderData.pageCount}
          pageSize={loaderData.pageSize}
          total={loaderData.total}
          searchParams={searchParams}
          noun="sample items"
        />
      </KitSection>

      <KitSection
        id="section-tabs"
        note={
          "A section's tabs: links to sibling routes (NavLink marks the current one). Where the URL " +
          'carries state, the page says which tab is current.'
        }
      >
        <SectionTabs
          label="Sample tabs"
          mb="2"
          tabs={[
            { label: 'First tab', to: `${KIT_PATH}?tab=first#section-tabs`, isCurrent: tab === 'first' },
            { label: 'Second tab', to: `${KIT_PATH}?tab=second#section-tabs`, isCurrent: tab === 'second' },
          ]}
        />
        <Text fontSize="sm">{tab === 'second' ? 'The second tab is open.' : 'The first tab is open.'}</Text>
      </KitSection>

      <KitSection
        id="section-card"
        note={
          'One part of a detail page in a card, named by its h2 (Details, Statistics); actions may ' +
          "sit beside the heading. This page's sections are section cards."
        }
      >
        <Text fontSize="sm">This frame, its heading and this text are a SectionCard.</Text>
      </KitSection>

      <KitSection
        id="status-badges"
        note={
          "A job's or a resource's status: a small coloured label. Its container carries " +
          'statusBadgeCss (a list has one per row). Statuses the cluster adds later show in gray.'
        }
      >
        <Box display="flex" flexWrap="wrap" gap="2" css={statusBadgeCss}>
          {SAMPLE_STATUSES.map((status) => (
            <StatusBadge key={status} status={status} />
          ))}
          <StatusBadge status="running">committing</StatusBadge>
        </Box>
      </KitSection>

      <KitSection
        id="error-panel"
        note={
          "A route's ErrorBoundary body: the catalogue's message, never a stack, and a way back. " +
          "Its heading is the page's h1, or level={2} under a section's own h1."
        }
      >
        <ErrorPanel
          level={3}
          title="The tables could not be loaded"
          message="API unavailable at the moment, we'll be back shortly."
          back={{ to: KIT_PATH, label: 'Try again' }}
        />
      </KitSection>

      <KitSection
        id="inline-alert"
        note={
          'One part of a page failed (a panel whose call failed through settle, a statement the ' +
          'engine refused): its message in place of the part, the rest of the page usable.'
        }
      >
        <InlineAlert title="The organization summary could not be loaded.">This panel cannot be accessed</InlineAlert>
      </KitSection>

      <KitSection
        id="themes"
        note={
          "Light, dark, or the device's (System): chosen in the user menu or in Settings, kept in a " +
          "cookie and rendered by the server. Use Chakra's semantic colours (bg, fg, fg.muted, " +
          'border, link, <palette>.subtle/.fg/.solid), never fixed shades, and both themes follow. ' +
          "Here the same parts in each theme, whatever this page's theme is."
        }
      >
        <Box display="grid" gridTemplateColumns={{ base: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' }} gap="4">
          {(['light', 'dark'] as const).map((mode) => (
            <Example key={mode} title={mode === 'light' ? 'Light' : 'Dark'}>
              <ThemeSample mode={mode} />
            </Example>
          ))}
        </Box>
      </KitSection>
    </Stack>
  )
}

/** A few parts under one theme (Chakra's `.light`/`.dark` class sets its colour variables on a subtree). */
function ThemeSample({ mode }: { mode: 'light' | 'dark' }) {
  return (
    <Box
      className={mode}
      data-theme-sample={mode}
      bg="bg.subtle"
      color="fg"
      borderWidth="1px"
      borderColor="border"
      rounded="md"
      p="4"
    >
      <Stack gap="3" bg="bg" borderWidth="1px" borderColor="border" rounded="md" p="4" css={statusBadgeCss}>
        <Text fontWeight="semibold">web_logs</Text>
        <Text fontSize="sm" color="fg.muted">
          Web server access logs, one row a request.
        </Text>
        <Box>
          <StatusBadge status="running" /> <StatusBadge status="failed" />
        </Box>
        <Text fontSize="sm" color="fg.error">
          Name is required
        </Text>
        <Box fontSize="sm">
          <EmptyState message="No tables yet." action={{ to: KIT_PATH, label: 'Create your first table' }} />
        </Box>
        <Box>
          <Button size="sm" colorPalette="blue">
            Save
          </Button>
        </Box>
      </Stack>
    </Box>
  )
}

/** One component's section: its h2, when to use it, then its examples. */
function KitSection({ id, note, children }: { id: SectionId; note: string; children: ReactNode }) {
  const title = SECTIONS.find((section) => section.id === id)!.title
  return (
    <Box id={id} scrollMarginTop="4">
      <SectionCard id={`kit-${id}`} title={title}>
        <Text fontSize="sm" color="fg.muted" mb="4">
          {note}
        </Text>
        <Stack gap="4">{children}</Stack>
      </SectionCard>
    </Box>
  )
}

/** One state of a component, named by its h3. */
function Example({ title, children }: { title: string; children: ReactNode }) {
  const id = `example-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`
  return (
    <Box as="section" aria-labelledby={id}>
      <Heading as="h3" id={id} size="sm" mb="2">
        {title}
      </Heading>
      {children}
    </Box>
  )
}

const loadSampleFormSchema = () => import('./__components-kit-schema').then((module) => module.SampleFormSchema)

/** The sample create form; `id` is its intent too, so the action's reply comes back to this one. */
function SampleForm({
  id,
  constraint,
  lastResult,
}: {
  id: string
  constraint: FormConstraint
  lastResult?: SubmissionResult<string[]>
}) {
  const [form, fields] = useLazySchemaForm(loadSampleFormSchema, {
    id,
    constraint,
    lastResult,
    defaultValue: { owner: 'admin@example.com' },
  })
  return (
    <FormCard form={form} submit={{ label: 'Create sample', name: 'intent', value: id }} cancelTo={KIT_PATH}>
      <Field
        meta={fields.name}
        label="Name"
        help="Lower-case letters, digits and underscores."
        inputProps={{ autoComplete: 'off' }}
      />
      <TextareaField meta={fields.description} label="Description" rows={2} />
      <SelectField meta={fields.kind} label="Kind" placeholder="Select a kind" options={KINDS} />
      <CheckboxField
        meta={fields.isEnabled}
        label="Enabled"
        help="A checkbox sends “on” when checked and nothing otherwise."
      />
      <Field
        meta={fields.owner}
        label="Owner"
        help="Disabled: set by the cluster, not sent with the form."
        inputProps={{ disabled: true }}
      />
    </FormCard>
  )
}

export const meta: MetaFunction = () => [{ title: 'Components kit · Cluster Console' }]
export const ErrorBoundary = RouteErrorBoundary
