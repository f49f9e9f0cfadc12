import { type SubmissionResult } from '@conform-to/react'
import { originalOf } from '~/utils/edit-conflict'
import { chakra } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { HStack, Stack } from '~/components/ui/stack'
import { Button } from '~/components/ui/button'
import { Form, Link } from '@remix-run/react'
import { useMemo } from 'react'
import { CheckboxField } from '~/components/forms/checkbox-field'
import { ErrorList } from '~/components/forms/error-list'
import { CodeField } from '~/components/forms/code-field'
import { Field } from '~/components/forms/field'
import { FormCard } from '~/components/forms/form-card'
import { ProjectField } from '~/components/forms/project-field'
import { SelectField } from '~/components/forms/select-field'
import { useLazySchemaForm, type FormConstraint } from '~/components/forms/use-lazy-schema-form'
import { InlineAlert } from '~/components/layout/inline-alert'
import { SectionTabs } from '~/components/layout/section-tabs'
import { AGGREGATION_LABELS, AGGREGATIONS, TIME_UNITS } from '~/schemas/summary-values'
import type { summarySettingsEditForm as SummarySettingsEditForm, SummarySettingsSchema } from '~/schemas/summary'
import { FormSelect } from '~/components/forms/form-select'
import { TableSearchField, type PickerSearch } from '~/components/forms/table-search-field'

// Fetched after hydration; the HTML constraints come from the loader (decision 032).
const loadSummaryFormSchema = () => import('~/schemas/summary').then((module) => module.SummaryFormSchema)
const loadSummarySettingsForm = () => import('~/schemas/summary').then((module) => module.summarySettingsEditForm)
const loadColumnAnalysisSchema = () => import('~/schemas/summary').then((module) => module.ColumnAnalysisSchema)

/**
 * The summary table screen's three tabs (spec section 2): Summary Form, Column Analysis, Summary
 * Settings. On a new summary table (`newForm`: the create form's id) the Form and Settings tabs are
 * two parts of one form: each tab sends the form as a GET (`?tab=`), so what was typed comes along.
 */
export function SummaryTabs({
  current,
  hrefs,
  newForm,
}: {
  current: 'form' | 'analysis' | 'settings'
  hrefs: { form: string; analysis: string; settings: string }
  newForm?: string
}) {
  const tabs = [
    {
      label: 'Summary Form',
      to: hrefs.form,
      isCurrent: current === 'form',
      submitsForm: newForm ? { form: newForm, value: 'form' } : undefined,
    },
    { label: 'Column Analysis', to: hrefs.analysis, isCurrent: current === 'analysis' },
    {
      label: 'Summary Settings',
      to: hrefs.settings,
      isCurrent: current === 'settings',
      submitsForm: newForm ? { form: newForm, value: 'settings' } : undefined,
    },
  ]
  return <SectionTabs label="Summary table" tabs={tabs} mb="0" />
}

/** The tab a new summary table's form shows: its fields there, the others carried as hidden fields. */
export type NewSummaryTab = 'form' | 'settings'

/** The create form's fields each tab shows (the rest travel hidden). */
const NEW_SUMMARY_TAB_FIELDS: Record<NewSummaryTab, string[]> = {
  form: ['project', 'name', 'description', 'parent', 'sql'],
  settings: ['enabled', 'settingsShown', 'sql'],
}

/** The tab to show after a refused create: the Form tab when a field marked wrong is not on the one asked for. */
export function tabWithErrors(tab: NewSummaryTab, result?: SubmissionResult<string[]>): NewSummaryTab {
  const wrong = Object.entries(result?.error ?? {})
    .filter(([, errors]) => errors?.length)
    .map(([name]) => name)
  return wrong.some((name) => !NEW_SUMMARY_TAB_FIELDS[tab].includes(name)) ? 'form' : tab
}

function HiddenFields({ values }: { values: Record<string, unknown> }) {
  return (
    <>
      {Object.entries(values).map(([name, value]) =>
        typeof value === 'string' && value !== '' ? <input key={name} type="hidden" name={name} value={value} /> : null,
      )}
    </>
  )
}

function SqlField({
  meta,
  label,
  help,
  rows = 8,
}: {
  meta: Parameters<typeof CodeField>[0]['meta']
  label: string
  help?: string
  rows?: number
}) {
  return <CodeField meta={meta} label={label} help={help} rows={rows} language="sql" schema />
}

/**
 * The Summary Form and Summary Settings tabs of a new summary table: one form, `tab` the part shown
 * (the other's fields travel hidden, so a create from either tab writes both). The parent is picked
 * among what the search finds (issue 33); its "Find" sends the whole form as a GET, so what was
 * typed comes back with the tables found.
 */
export function SummaryForm({
  projects,
  search,
  defaults,
  lastResult,
  analysisHref,
  tab = 'form',
  constraint,
}: {
  /** `getZodConstraint(SummaryFormSchema)`, from the loader. */
  constraint: FormConstraint
  projects: { uuid: string; name: string }[]
  search: PickerSearch
  defaults: {
    project?: string
    parent?: string
    name?: string
    description?: string
    sql?: string
    /** "on" when the new table is enabled (the default). */
    enabled?: string
    /** "on" once the Settings tab was shown: from then on an unticked Enabled means disabled. */
    settingsShown?: string
  }
  lastResult?: SubmissionResult<string[]>
  analysisHref: string
  tab?: NewSummaryTab
}) {
  const [form, fields] = useLazySchemaForm(loadSummaryFormSchema, {
    constraint,
    id: 'summary-form',
    lastResult,
    defaultValue: defaults,
  })
  const value = (name: keyof typeof fields) => fields[name].initialValue
  // A refused create keeps the parent search as it was typed (the loader's is the URL's, empty after a POST)
  const postedQ = lastResult?.initialValue?.table_q
  const shownSearch = useMemo(
    () => (typeof postedQ === 'string' && postedQ !== search.q ? { ...search, q: postedQ } : search),
    [search, postedQ],
  )
  if (tab === 'settings')
    return (
      <FormCard form={form} submit={{ label: 'Create summary table' }} cancelTo="/data/tables">
        <HiddenFields
          values={{
            project: value('project'),
            name: value('name'),
            description: value('description'),
            parent: value('parent'),
          }}
        />
        <input type="hidden" name="settingsShown" value="on" />
        <CheckboxField
          meta={fields.enabled}
          label="Summary enabled"
          help="A disabled summary table keeps its SQL but is not fed as rows arrive."
        />
        <SqlField
          meta={fields.sql}
          label="Summary SQL"
          help="It must read FROM the parent table; it is run on the cluster before the table is created."
        />
      </FormCard>
    )
  return (
    <FormCard form={form} submit={{ label: 'Create summary table' }} cancelTo="/data/tables">
      <HiddenFields values={{ enabled: value('enabled'), settingsShown: value('settingsShown') }} />
      <ProjectField meta={fields.project} projects={projects} />
      <Field
        meta={fields.name}
        label="Table name"
        help="A letter first, then letters, digits and underscores."
        inputProps={{ autoComplete: 'off' }}
      />
      <Field meta={fields.description} label="Description" />
      <Box mb="4">
        <TableSearchField
          search={shownSearch}
          idName={fields.parent.name}
          qName="table_q"
          label="Parent table"
          idPrefix="summary-parent"
          kind="raw"
          optionValue={(choice) => `${choice.projectId}/${choice.uuid}`}
          value={typeof fields.parent.initialValue === 'string' ? fields.parent.initialValue : undefined}
          isRequired
          isInvalid={Boolean(fields.parent.errors?.length)}
          describedBy={fields.parent.errors?.length ? fields.parent.errorId : undefined}
        />
        <ErrorList id={fields.parent.errorId} errors={fields.parent.errors} />
      </Box>
      <SqlField
        meta={fields.sql}
        label="Summary SQL"
        help="It must read FROM the parent table; it is run on the cluster before the table is created."
      />
      <Text fontSize="sm" mb="3">
        <Link to={analysisHref}>Build the SQL with Column Analysis</Link>
      </Text>
    </FormCard>
  )
}

/** The Summary Settings tab (edit): enabled and the SQL. */
export function SummarySettingsForm({
  defaults,
  lastResult,
  cancelTo,
  constraint,
}: {
  /** `getZodConstraint(SummarySettingsSchema)`, from the loader. */
  constraint: FormConstraint
  /** `original`: the stored values as rendered, JSON (a save writes only what differs). */
  defaults: { enabled: boolean; sql: string; original?: string }
  lastResult?: SubmissionResult<string[]>
  cancelTo: string
}) {
  const [form, fields] = useLazySchemaForm<typeof SummarySettingsSchema, typeof SummarySettingsEditForm>(
    loadSummarySettingsForm,
    {
      // the fields still as stored are not checked again, as in the action (decision 103)
      schemaOf: (editForm, formData) => editForm.schemaOf(formData, undefined),
      constraint,
      id: 'summary-settings',
      lastResult,
      defaultValue: { enabled: defaults.enabled ? 'on' : undefined, sql: defaults.sql },
    },
  )
  return (
    <FormCard form={form} submit={{ label: 'Save summary settings' }} cancelTo={cancelTo}>
      {originalOf(lastResult, defaults.original) ? (
        <input type="hidden" name="original" value={originalOf(lastResult, defaults.original)} />
      ) : null}
      <CheckboxField meta={fields.enabled} label="Summary enabled" />
      <SqlField meta={fields.sql} label="Summary SQL" help="Run on the cluster before it is saved." />
    </FormCard>
  )
}

/**
 * Picks the parent for the column analysis among what the search finds (issue 33): a GET form,
 * works without scripts; suggests as one types with them.
 */
export function ParentPicker({ search }: { search: PickerSearch }) {
  return (
    <Box bg="bg" borderWidth="1px" rounded="md" p="4">
      <Form method="get">
        <TableSearchField
          search={search}
          idName="parent"
          qName="table_q"
          label="Parent table"
          idPrefix="analysis-parent"
          kind="raw"
          optionValue={(choice) => `${choice.projectId}/${choice.uuid}`}
        />
        <Button type="submit" mt="3" size="sm" variant="outline">
          Analyse columns
        </Button>
      </Form>
    </Box>
  )
}

/**
 * The Column Analysis tab: the timestamp bucket, what each column becomes (group by or an
 * aggregate), an optional WHERE and timeframe. "Build SQL" answers the SQL, which "Use this SQL"
 * takes to the form (`useHref` + `?sql=`).
 */
export function ColumnAnalysisForm({
  parent,
  columns,
  lastResult,
  sql,
  useHref,
  constraint,
}: {
  /** `getZodConstraint(ColumnAnalysisSchema)`, from the loader. */
  constraint: FormConstraint
  parent: string
  columns: { name: string; type: string; primary: boolean }[]
  lastResult?: SubmissionResult<string[]>
  sql: string | null
  /** Where "Use this SQL" goes, without the sql parameter. */
  useHref: string
}) {
  const primary =
    columns.find((column) => column.primary)?.name ??
    columns.find((column) => /date|time|epoch/.test(column.type))?.name
  const [form, fields] = useLazySchemaForm(loadColumnAnalysisSchema, {
    constraint,
    id: 'column-analysis',
    lastResult,
    shouldValidate: 'onSubmit',
    defaultValue: {
      parent,
      timestampColumn: primary,
      timestampValue: '1',
      timestampUnit: 'minute',
      timeframeUnit: 'day',
      columns: columns.map((column) => ({ name: column.name, aggregation: 'skip' })),
    },
  })
  const rows = fields.columns.getFieldList()
  return (
    <Stack gap="4">
      <FormCard form={form} submit={{ label: 'Build SQL' }}>
        <input type="hidden" name="parent" value={parent} />
        {/* the parent is no field the user sees: a parent gone since the page was shown is said here */}
        {fields.parent.errors?.length ? <InlineAlert>{fields.parent.errors.join(' ')}</InlineAlert> : null}
        <SelectField
          meta={fields.timestampColumn}
          label="Timestamp column"
          options={columns
            .filter((column) => /date|time|epoch/.test(column.type))
            .map((column) => ({ value: column.name, label: column.name }))}
        />
        <HStack align="start" gap="4">
          <Field
            meta={fields.timestampValue}
            label="Timestamp value"
            help="The size of each time bucket."
            inputProps={{ inputMode: 'numeric' }}
          />
          <SelectField
            meta={fields.timestampUnit}
            label="Timestamp unit"
            options={TIME_UNITS.map((unit) => ({ value: unit, label: unit }))}
          />
        </HStack>
        <Box as="fieldset" mb="4">
          <chakra.legend fontWeight="medium" fontSize="sm" mb="2">
            Columns
          </chakra.legend>
          <Stack gap="2">
            {rows.map((row, index) => {
              const column = columns[index]
              if (!column) return null
              const rowFields = row.getFieldset()
              return (
                <HStack key={row.key} gap="3">
                  <input type="hidden" name={rowFields.name.name} value={column.name} />
                  <chakra.label htmlFor={rowFields.aggregation.id} fontSize="sm" minW="12rem">
                    {column.name}{' '}
                    <Text as="span" color="fg.muted" fontSize="xs">
                      {column.type}
                    </Text>
                  </chakra.label>
                  <FormSelect
                    size="sm"
                    id={rowFields.aggregation.id}
                    name={rowFields.aggregation.name}
                    defaultValue={rowFields.aggregation.initialValue ?? 'skip'}
                    isInvalid={Boolean(rowFields.aggregation.errors?.length)}
                    aria-invalid={rowFields.aggregation.errors?.length ? true : undefined}
                    aria-describedby={rowFields.aggregation.errors?.length ? rowFields.aggregation.errorId : undefined}
                  >
                    {AGGREGATIONS.map((aggregation) => (
                      <option key={aggregation} value={aggregation}>
                        {AGGREGATION_LABELS[aggregation]}
                      </option>
                    ))}
                  </FormSelect>
                  <ErrorList id={rowFields.aggregation.errorId} errors={rowFields.aggregation.errors} />
                </HStack>
              )
            })}
          </Stack>
          <ErrorList id={fields.columns.errorId} errors={fields.columns.errors} />
        </Box>
        <Field
          meta={fields.where}
          label="WHERE clause (optional)"
          help="Columns used here can be grouped by, not aggregated."
        />
        <HStack align="start" gap="4">
          <Field
            meta={fields.timeframeValue}
            label="Timeframe value (optional)"
            help="Only rows this recent."
            inputProps={{ inputMode: 'numeric' }}
          />
          <SelectField
            meta={fields.timeframeUnit}
            label="Timeframe unit"
            options={TIME_UNITS.map((unit) => ({ value: unit, label: unit }))}
          />
        </HStack>
      </FormCard>
      {sql ? (
        <Box as="section" aria-labelledby="built-sql-heading" bg="bg" borderWidth="1px" rounded="md" p="4">
          <Text as="h2" id="built-sql-heading" fontWeight="semibold" mb="2">
            The SQL built
          </Text>
          <Box as="pre" fontFamily="mono" fontSize="sm" whiteSpace="pre-wrap" mb="3" data-testid="built-sql">
            {sql}
          </Box>
          <Form method="get" action={useHref.split('?')[0]}>
            {[...new URLSearchParams(useHref.split('?')[1] ?? '').entries()].map(([key, value]) => (
              <input key={key} type="hidden" name={key} value={value} />
            ))}
            <input type="hidden" name="sql" value={sql} />
            <Button type="submit" size="sm" colorPalette="blue">
              Use this SQL
            </Button>
          </Form>
        </Box>
      ) : null}
    </Stack>
  )
}
