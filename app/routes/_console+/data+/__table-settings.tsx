import { getTextareaProps, type SubmissionResult } from '@conform-to/react'
import { originalOf } from '~/utils/edit-conflict'
import { SimpleGrid } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { HStack, Stack } from '~/components/ui/stack'
import { Heading } from '~/components/ui/heading'
import { Input } from '~/components/ui/input'
import { Link as ChakraLink } from '~/components/ui/link'
import { Textarea } from '~/components/ui/textarea'
import { Link } from '@remix-run/react'
import { CheckboxField } from '~/components/forms/checkbox-field'
import { describedBy, FieldShell, helpIdOf } from '~/components/forms/field-shell'
import { Field } from '~/components/forms/field'
import { FormCard } from '~/components/forms/form-card'
import { useLazySchemaForm, type FormConstraint } from '~/components/forms/use-lazy-schema-form'
import { DetailList } from '~/components/layout/detail-list'
import { GuardedLink } from '~/components/layout/denied'
import { FocusHeading } from '~/components/layout/focus-heading'
import { isTextareaField, settingsGroup } from '~/schemas/table-settings-values'
import type { SettingsFieldView, SettingsOverviewGroup, SettingsStep } from './__table-settings.server'
import { CodeField } from '~/components/forms/code-field'

/*
 * The table page's settings (issue 7): the overview of every group with an "Edit" link that opens
 * `?edit=<group>` on the same page, the one group's form, and the rename form. Kept out of the
 * route module so the page's other panels (transforms, sources) merge cleanly.
 */

// The schemas come after hydration (decision 077): zod stays out of the table page's first load.
const loadTableSettingsSchemas = () => import('~/schemas/table-settings')
const loadJsonSettingsSchema = () => import('~/schemas/table-settings').then((module) => module.JsonSettingsSchema)
const loadRenameTableSchema = () => import('~/schemas/table-settings').then((module) => module.RenameTableSchema)

/** Where `?edit=<group>` (and the other steps) open: the table's URL with `params` added. */
export function stepHref(base: string, params: Record<string, string>): string {
  const url = new URL(base, 'http://x')
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value)
  return `${url.pathname}${url.search}`
}

/** Rename, truncate and remove: links that open their step on the table page. */
export function TableManageLinks({
  base,
  tableId,
  isSummary = false,
  denied,
}: {
  base: string
  tableId: string
  isSummary?: boolean
  /** Why the user may not change or truncate the table (`whyNot`), null when they may. */
  denied: { change: string | null; truncate: string | null }
}) {
  const projectId = new URL(base, 'http://x').searchParams.get('project') ?? ''
  return (
    <>
      {isSummary ? (
        <GuardedLink to={`/data/tables/${tableId}/edit-summary-settings?project=${projectId}`} reason={denied.change}>
          Summary settings
        </GuardedLink>
      ) : null}
      <GuardedLink to={stepHref(base, { edit: 'rename' })} reason={denied.change}>
        Rename…
      </GuardedLink>
      <GuardedLink to={stepHref(base, { truncate: tableId })} reason={denied.truncate} colorPalette="orange">
        Truncate…
      </GuardedLink>
    </>
  )
}

/** Every settings group with its current values, each with a link to its own form. */
export function TableSettingsOverview({
  groups,
  base,
  editReason,
}: {
  groups: SettingsOverviewGroup[]
  base: string
  editReason: string | null
}) {
  return (
    <Box as="section" aria-labelledby="settings-heading" id="settings" scrollMarginTop="20">
      <Heading as="h2" id="settings-heading" size="md" mb="2">
        Settings
      </Heading>
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4">
        {groups.map((group) => (
          <Box
            key={group.key}
            as="section"
            aria-labelledby={`settings-${group.key}-heading`}
            bg="bg"
            borderWidth="1px"
            rounded="md"
            p="4"
          >
            <HStack justify="space-between" mb="2">
              <Heading as="h3" id={`settings-${group.key}-heading`} size="sm">
                {group.title}
              </Heading>
              <GuardedLink
                to={`${stepHref(base, { edit: group.key })}#edit-settings`}
                reason={editReason}
                size="xs"
                ariaLabel={`Edit ${group.title}`}
              >
                Edit
              </GuardedLink>
            </HStack>
            {group.entries.length ? (
              <DetailList
                labelWidth="12rem"
                entries={group.entries.map((entry) => [entry.label, <code key={entry.label}>{entry.value}</code>])}
              />
            ) : (
              <Text color="fg.muted" fontSize="sm">
                None set.
              </Text>
            )}
          </Box>
        ))}
      </SimpleGrid>
    </Box>
  )
}

/** One group's form (`?edit=<group>`): its fields, empty ones showing the default they take; or, with `&as=json`, its JSON. */
export function SettingsGroupForm(props: {
  step: SettingsStep
  lastResult?: SubmissionResult<string[]>
  cancelTo: string
}) {
  return props.step.asJson ? <SettingsJsonForm {...props} /> : <SettingsFieldsForm {...props} />
}

function SettingsJsonForm({
  step,
  lastResult,
  cancelTo,
}: {
  step: SettingsStep
  lastResult?: SubmissionResult<string[]>
  cancelTo: string
}) {
  const [form, fields] = useLazySchemaForm(loadJsonSettingsSchema, {
    id: `settings-json-${step.key}`,
    constraint: step.constraint,
    lastResult,
    defaultValue: { json: step.json },
  })
  const title = step.title.charAt(0).toLowerCase() + step.title.slice(1)
  const fieldsHref = stepHref(cancelTo.split('#')[0]!, { edit: step.key })
  return (
    <Stack as="section" aria-labelledby="edit-settings-heading" id="edit-settings" gap="3" scrollMarginTop="20">
      <FocusHeading id="edit-settings-heading" level={2}>
        Edit {title} as JSON
      </FocusHeading>
      <Text color="fg.muted">
        Shaped like the table’s settings; only this group’s keys are read, and checked by the same rules as the form.{' '}
        <ChakraLink asChild color="link">
          <Link to={`${fieldsHref}#edit-settings`}>Edit as a form</Link>
        </ChakraLink>
      </Text>
      <FormCard form={form} submit={{ label: `Save ${title}` }} cancelTo={cancelTo}>
        <input type="hidden" name="intent" value="save-settings" />
        <input type="hidden" name="group" value={step.key} />
        <input type="hidden" name="format" value="json" />
        <input type="hidden" name="original" value={originalOf(lastResult, step.original)} />
        <CodeField
          meta={fields.json}
          label="Settings (JSON)"
          language="json"
          rows={Math.min(24, step.json.split('\n').length + 2)}
        />
        {step.key === 'lifecycle' ? <ConfirmDropBox /> : null}
      </FormCard>
    </Stack>
  )
}

function ConfirmDropBox() {
  return (
    <Box mb="4" fontSize="sm">
      <label>
        <input type="checkbox" name="confirmDrop" /> Remove the older data
      </label>
      <Text fontSize="xs" color="fg.muted">
        Needed only when the new max age removes rows already stored; the console says what goes first.
      </Text>
    </Box>
  )
}

function SettingsFieldsForm({
  step,
  lastResult,
  cancelTo,
}: {
  step: SettingsStep
  lastResult?: SubmissionResult<string[]>
  cancelTo: string
}) {
  const group = settingsGroup(step.key)!
  const locked = step.fields.filter((field) => field.lockedBecause).map((field) => field.name)
  const unset = group.fields.filter((field) => step.values[field.name] === undefined).map((field) => field.name)
  const [form, fields] = useLazySchemaForm(loadTableSettingsSchemas, {
    // the fields still as rendered from the stored value are kept, not checked (as in the action)
    schemaOf: (schemas, formData) =>
      schemas.settingsSchema(group, {
        lockedFields: [...locked, ...schemas.keptSettingFields(group, formData)],
        unsetFields: unset,
      }),
    id: `settings-${step.key}`,
    constraint: step.constraint,
    lastResult,
    defaultValue: step.values,
  })
  const isWide = step.fields.length > 6
  return (
    <Stack as="section" aria-labelledby="edit-settings-heading" id="edit-settings" gap="3" scrollMarginTop="20">
      <FocusHeading id="edit-settings-heading" level={2}>
        Edit {step.title.charAt(0).toLowerCase() + step.title.slice(1)}
      </FocusHeading>
      <Text color="fg.muted">
        {step.description} An empty field takes the default shown in it
        {step.isBuiltInDefaults ? ' (the cluster’s defaults could not be read: these are the built-in ones)' : ''}.{' '}
        <ChakraLink asChild color="link">
          <Link to={`${stepHref(cancelTo.split('#')[0]!, { edit: step.key, as: 'json' })}#edit-settings`}>
            Edit as JSON
          </Link>
        </ChakraLink>
      </Text>
      <FormCard
        form={form}
        submit={{ label: `Save ${step.title.charAt(0).toLowerCase() + step.title.slice(1)}` }}
        cancelTo={cancelTo}
      >
        <input type="hidden" name="intent" value="save-settings" />
        <input type="hidden" name="group" value={step.key} />
        <input type="hidden" name="original" value={originalOf(lastResult, step.original)} />
        <SimpleGrid columns={{ base: 1, md: isWide ? 2 : 1 }} columnGap="6">
          {step.fields.map((view) => (
            <SettingInput
              key={view.name}
              view={view}
              meta={fields[view.name] as unknown as AnyMeta}
              value={step.values[view.name]}
            />
          ))}
        </SimpleGrid>
        {step.key === 'lifecycle' ? <ConfirmDropBox /> : null}
      </FormCard>
    </Stack>
  )
}

type AnyMeta = Parameters<typeof Field>[0]['meta']

function SettingInput({ view, meta, value }: { view: SettingsFieldView; meta: AnyMeta; value?: string }) {
  const label = view.required ? `${view.label} (required)` : view.label
  if (view.lockedBecause) {
    return (
      <Box mb="4">
        <Text fontWeight="medium" fontSize="sm" mb="1" id={`${meta.id}-label`}>
          {view.label}
        </Text>
        <Input
          readOnly
          value={value ?? ''}
          aria-labelledby={`${meta.id}-label`}
          aria-describedby={`${meta.id}-why`}
          bg="bg.muted"
        />
        <Text id={`${meta.id}-why`} fontSize="xs" color="fg.muted" mt="1">
          Read-only: {view.lockedBecause}
        </Text>
      </Box>
    )
  }
  if (view.kind === 'bool') return <CheckboxField meta={meta as never} label={view.label} help={view.help} />
  if (isTextareaField(view)) {
    const props = getTextareaProps(meta as never)
    return (
      <FieldShell meta={meta} label={label} help={view.help}>
        <Textarea
          {...props}
          key={props.key}
          rows={view.rows ?? 3}
          placeholder={view.placeholder}
          fontFamily="mono"
          aria-describedby={describedBy(props['aria-describedby'], helpIdOf(meta, view.help))}
        />
      </FieldShell>
    )
  }
  return (
    <Field
      meta={meta}
      label={label}
      help={view.help}
      inputProps={{
        placeholder: view.placeholder,
        inputMode: view.kind === 'int' ? 'numeric' : view.kind === 'number' ? 'decimal' : undefined,
        autoComplete: 'off',
      }}
    />
  )
}

/** The rename form (`?edit=rename`): name and description. */
export function RenameTableForm({
  name,
  description,
  original,
  constraint,
  lastResult,
  cancelTo,
}: {
  name: string
  description: string
  /** `getZodConstraint(RenameTableSchema)` from the loader. */
  constraint?: FormConstraint
  /** The stored name and description as JSON (a save writes only what differs). */
  original?: string
  lastResult?: SubmissionResult<string[]>
  cancelTo: string
}) {
  const [form, fields] = useLazySchemaForm(loadRenameTableSchema, {
    id: 'rename-table',
    constraint,
    lastResult,
    defaultValue: { name, description },
  })
  return (
    <Stack as="section" aria-labelledby="edit-settings-heading" id="edit-settings" gap="3" scrollMarginTop="20">
      <FocusHeading id="edit-settings-heading" level={2}>
        Rename table
      </FocusHeading>
      <Text color="fg.muted">
        Queries, views and summary tables that name the table by its old name must be changed too.
      </Text>
      <FormCard form={form} submit={{ label: 'Save name' }} cancelTo={cancelTo}>
        <input type="hidden" name="intent" value="rename-table" />
        {originalOf(lastResult, original) ? (
          <input type="hidden" name="original" value={originalOf(lastResult, original)} />
        ) : null}
        <Field
          meta={fields.name}
          label="Table name"
          help="A letter first, then letters, digits and underscores."
          inputProps={{ autoComplete: 'off' }}
        />
        <Field meta={fields.description} label="Description" />
      </FormCard>
    </Stack>
  )
}
