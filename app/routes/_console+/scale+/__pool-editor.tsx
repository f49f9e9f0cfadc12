import { getSelectProps, type FieldMetadata, type FormMetadata, type SubmissionResult } from '@conform-to/react'
import { originalOf } from '~/utils/edit-conflict'
import { chakra, SimpleGrid } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import type { ReactNode } from 'react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { CheckboxField } from '~/components/forms/checkbox-field'
import { Field, TextareaField } from '~/components/forms/field'
import { describedBy, FieldShell, helpIdOf } from '~/components/forms/field-shell'
import { FormCard } from '~/components/forms/form-card'
import { useLazySchemaForm, type FormConstraint } from '~/components/forms/use-lazy-schema-form'
import { KIND_LABELS, kindNeedsTable, POOL_KINDS, SERVICES, type PoolKind } from '~/schemas/pool-values'
import type { PoolSizeDefaults } from './__pool-editor.server'
import type { poolEditForm as PoolEditForm, PoolEditFormSchema } from '~/schemas/pool'
import { FormSelect } from '~/components/forms/form-select'
import { siblingValue } from '~/components/forms/early-changes'
import { transformChoicesOf, transformForTable, type TableTransformOption } from '~/utils/table-transform'
import { isDefaultChoice, useTableTransforms } from '~/components/forms/use-table-transforms'

// Fetched after hydration; the HTML constraints come from the loader (decision 032).
const loadPoolFormSchema = () => import('~/schemas/pool').then((module) => module.PoolFormSchema)
const loadPoolEditForm = () => import('~/schemas/pool').then((module) => module.poolEditForm)

/** The edit form's intent on the pool's page (its other one is the delete). */
export const UPDATE_INTENT = 'update-pool'

type Meta = FieldMetadata<string | undefined, Record<string, unknown>, string[]>
type Group = { label: string; options: { value: string; label: string }[] }

/** A labelled native select wired to a conform field, its options in groups (works without scripts). */
function GroupedSelect({
  meta,
  label,
  groups,
  placeholder,
  help,
  onChange,
}: {
  meta: Meta
  label: string
  groups: Group[]
  placeholder: string
  help?: ReactNode
  onChange?: (select: HTMLSelectElement) => void
}) {
  const props = getSelectProps(meta)
  return (
    <FieldShell meta={meta} label={label} help={help}>
      <FormSelect
        {...props}
        key={props.key}
        aria-describedby={describedBy(props['aria-describedby'], helpIdOf(meta, help))}
        onChange={onChange ? (event) => onChange(event.currentTarget) : undefined}
        isInvalid={Boolean(meta.errors?.length)}
      >
        <option value="">{placeholder}</option>
        {groups.map((group) =>
          group.label ? (
            <optgroup key={group.label} label={group.label}>
              {group.options.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </optgroup>
          ) : (
            group.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))
          ),
        )}
      </FormSelect>
    </FieldShell>
  )
}

type ScaleFieldsMeta = Record<
  'description' | 'replicas' | 'minReplicas' | 'maxReplicas' | 'cpu' | 'memory' | 'storage' | 'shards' | 'isDefault',
  Meta
>

/** The size fields both forms share: replicas (a count or a range), CPU, memory, storage, shards, default, description. */
function ScaleFields({ fields, defaults }: { fields: ScaleFieldsMeta; defaults: PoolSizeDefaults }) {
  const empty = (value: string) => `Empty: the cluster's default, ${value}.`
  return (
    <>
      <chakra.fieldset borderWidth="1px" rounded="md" p="4" mb="4">
        <chakra.legend px="1" fontWeight="medium" fontSize="sm">
          Replicas
        </chakra.legend>
        <Text fontSize="xs" color="fg.muted" mb="3">
          A fixed number of workers, or a min and max for the cluster to scale between. {empty(defaults.replicas)}
        </Text>
        <SimpleGrid columns={{ base: 1, md: 3 }} columnGap="4">
          <Field
            meta={fields.replicas}
            label="Replicas"
            inputProps={{ inputMode: 'numeric', placeholder: defaults.replicas }}
          />
          <Field meta={fields.minReplicas} label="Min replicas" inputProps={{ inputMode: 'numeric' }} />
          <Field meta={fields.maxReplicas} label="Max replicas" inputProps={{ inputMode: 'numeric' }} />
        </SimpleGrid>
      </chakra.fieldset>
      <SimpleGrid columns={{ base: 1, md: 3 }} columnGap="4">
        <Field
          meta={fields.cpu}
          label="CPU"
          help={`Cores per replica: 2, 0.5 or 500m. ${empty(defaults.cpu)}`}
          inputProps={{ autoComplete: 'off', placeholder: defaults.cpu }}
        />
        <Field
          meta={fields.memory}
          label="Memory"
          help={`Per replica: 2Gi, 512Mi. ${empty(defaults.memory)}`}
          inputProps={{ autoComplete: 'off', placeholder: defaults.memory }}
        />
        <Field
          meta={fields.storage}
          label="Ephemeral storage"
          help={`Scratch disk per replica. ${empty(defaults.storage)}`}
          inputProps={{ autoComplete: 'off', placeholder: defaults.storage }}
        />
      </SimpleGrid>
      <SimpleGrid columns={{ base: 1, md: 3 }} columnGap="4">
        <Field
          meta={fields.shards}
          label="Shards"
          help="Optional: how many shards the pool's work is split into."
          inputProps={{ inputMode: 'numeric' }}
        />
      </SimpleGrid>
      <CheckboxField
        meta={fields.isDefault}
        label="Default pool for its service"
        help="Work that names no pool runs here (for a query pool: queries without hdx_query_pool_name)."
      />
      <TextareaField meta={fields.description} label="Description" rows={2} />
    </>
  )
}

const NAME_EXAMPLES: Record<PoolKind, string> = { ingest: 'intake-pool', search: 'query-pool', core: 'merge-pool' }

/** The new-pool form: type, service, name, table and transform (ingest), then the sizes. */
export function PoolCreateEditor({
  type,
  service,
  table: initialTable,
  transform: initialTransform,
  tables,
  defaults,
  constraint,
  lastResult,
}: {
  type: PoolKind
  /** The service to preselect ('' for none). */
  service: string
  /** The table (`project.table`) and transform (`project.table:name`) to preselect ('' for none). */
  table: string
  transform: string
  tables: TableTransformOption[]
  defaults: PoolSizeDefaults
  /** `getZodConstraint(PoolFormSchema)`, from the loader. */
  constraint: FormConstraint
  lastResult?: SubmissionResult<string[]>
}) {
  const isHydrated = useHydrated()
  const [form, fields] = useLazySchemaForm(loadPoolFormSchema, {
    id: 'pool-editor',
    constraint,
    lastResult,
    defaultValue: { type, service, table: initialTable, transform: initialTransform },
  })
  const kind = String(fields.type.value ?? '')
  const table = String(fields.table.value ?? '')

  // With scripts the services and transforms offered follow the type and the table picked.
  const serviceGroups: Group[] = (
    isHydrated && (POOL_KINDS as readonly string[]).includes(kind) ? [kind as PoolKind] : POOL_KINDS
  ).map((entry) => ({
    // Always in labelled groups: hydration keeps the group (and the option picked) instead of remounting it.
    label: KIND_LABELS[entry],
    options: SERVICES[entry],
  }))
  // Sibling fields are read from the form: these also run for a change made before hydration
  // (useEarlyChanges), when the form's state does not hold it yet.
  const onTypeChange = (select: HTMLSelectElement) => {
    const services = SERVICES[select.value as PoolKind] ?? []
    if (!services.some((entry) => entry.value === siblingValue(select, fields.service.name)))
      form.update({ name: fields.service.name, value: services.length === 1 ? services[0]!.value : '' })
  }
  // a table's transforms are read when it is picked (decision 085): the page carries the preselected one's
  const { options, readTransforms } = useTableTransforms(tables, (read) => {
    // the table's transforms came while it is still picked with its default's option: its real default
    if (table === read && isDefaultChoice(read, String(fields.transform.value ?? '')))
      form.update({ name: fields.transform.name, value: transformForTable(options, read, '') })
  })
  const onTableChange = (select: HTMLSelectElement) => {
    form.update({
      name: fields.transform.name,
      value: transformForTable(options, select.value, siblingValue(select, fields.transform.name)),
    })
    readTransforms(select.value)
  }
  const transformGroups: Group[] = (isHydrated ? options.filter((entry) => entry.value === table) : options).map(
    (entry) => ({ label: entry.value, options: transformChoicesOf(entry) }),
  )
  // The type is known on the server too (the URL's, or the one sent): without scripts, a changed type
  // brings its fields (and their errors) with the next submission.
  const isTableShown = kindNeedsTable(kind)

  return (
    <FormCard
      form={form}
      submit={{ label: 'Create pool' }}
      cancelTo={
        kind && (POOL_KINDS as readonly string[]).includes(kind)
          ? kind === 'ingest'
            ? '/scale'
            : `/scale/${kind}`
          : '/scale'
      }
    >
      <SimpleGrid columns={{ base: 1, md: 2 }} columnGap="4">
        <GroupedSelect
          meta={fields.type as Meta}
          label="Type"
          placeholder="Select a type"
          groups={[{ label: '', options: POOL_KINDS.map((entry) => ({ value: entry, label: KIND_LABELS[entry] })) }]}
          onChange={onTypeChange}
          help={
            isHydrated || isTableShown
              ? undefined
              : 'An ingest pool also needs a table and a transform: the form asks for them once it is sent as Ingest.'
          }
        />
        <GroupedSelect
          meta={fields.service}
          label="Service"
          placeholder="Select a service"
          groups={serviceGroups}
          help={isHydrated ? undefined : 'Services are grouped by type: pick one of the selected type.'}
        />
      </SimpleGrid>
      <Field
        meta={fields.name}
        label="Name"
        help="Lowercase letters, digits and dashes, under 64. It names the pool's workers and cannot be changed later."
        inputProps={{ autoComplete: 'off', placeholder: NAME_EXAMPLES[kind as PoolKind] ?? 'intake-pool' }}
      />
      {isTableShown ? (
        <Box>
          <SimpleGrid columns={{ base: 1, md: 2 }} columnGap="4">
            <GroupedSelect
              meta={fields.table}
              label="Table"
              placeholder={tables.length ? 'Select a table' : 'No tables yet'}
              groups={[{ label: '', options: tables.map((entry) => ({ value: entry.value, label: entry.value })) }]}
              onChange={onTableChange}
            />
            <GroupedSelect
              meta={fields.transform}
              label="Transform"
              placeholder="Select a transform"
              groups={transformGroups}
              help={
                isHydrated
                  ? 'Where the pool writes: a transform of the table.'
                  : 'Transforms are grouped by table: pick one of the selected table (“Its default ' +
                    'transform”: the one its transforms mark default).'
              }
            />
          </SimpleGrid>
        </Box>
      ) : null}
      <ScaleFields fields={fields as unknown as ScaleFieldsMeta} defaults={defaults} />
    </FormCard>
  )
}

/** The edit form on a pool's page: the sizes, default flag and description; `intent=update`. */
export function PoolEditEditor({
  defaultValue,
  defaults,
  constraint,
  lastResult,
  cancelTo,
  deniedReason,
}: {
  defaultValue: Record<string, string | boolean | undefined>
  defaults: PoolSizeDefaults
  /** `getZodConstraint(PoolEditFormSchema)`, from the loader. */
  constraint: FormConstraint
  lastResult?: SubmissionResult<string[]>
  cancelTo: string
  deniedReason?: string | null
}) {
  const [form, fields] = useLazySchemaForm<typeof PoolEditFormSchema, typeof PoolEditForm>(loadPoolEditForm, {
    // the fields still as stored are not checked again, as in the action (decision 103)
    schemaOf: (editForm, formData) => editForm.schemaOf(formData, undefined),
    id: 'pool-edit',
    constraint,
    lastResult,
    defaultValue,
  })
  return (
    <FormCard
      form={form as unknown as FormMetadata<Record<string, unknown>, string[]>}
      submit={{ label: 'Save changes' }}
      cancelTo={cancelTo}
      deniedReason={deniedReason}
    >
      <input type="hidden" name="intent" value={UPDATE_INTENT} />
      {originalOf(lastResult, defaultValue.original) ? (
        <input type="hidden" name="original" value={originalOf(lastResult, defaultValue.original)} />
      ) : null}
      <ScaleFields fields={fields as unknown as ScaleFieldsMeta} defaults={defaults} />
    </FormCard>
  )
}
