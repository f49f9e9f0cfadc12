import {
  getInputProps,
  getSelectProps,
  getTextareaProps,
  type FieldMetadata,
  type SubmissionResult,
  type useForm,
} from '@conform-to/react'
import { chakra, SimpleGrid } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { HStack, Stack } from '~/components/ui/stack'
import { Button } from '~/components/ui/button'
import { Heading } from '~/components/ui/heading'
import { Input } from '~/components/ui/input'
import { Textarea } from '~/components/ui/textarea'
import { Link, useNavigation } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useHydrated } from 'remix-utils/use-hydrated'
import type { z } from 'zod'
import { CheckboxField } from '~/components/forms/checkbox-field'
import { ErrorList } from '~/components/forms/error-list'
import { Field, TextareaField } from '~/components/forms/field'
import { FieldShell } from '~/components/forms/field-shell'
import { FormCard } from '~/components/forms/form-card'
import { SelectField } from '~/components/forms/select-field'
import { SubmitButton } from '~/components/forms/submit-button'
import { RESOLUTIONS, storedRuleNotes, transformNameProblem, TRANSFORM_TYPES } from '~/schemas/transform-rules'
import type { TransformFormSchema } from '~/schemas/transform'
import { useLazySchemaForm, type FormConstraint } from '~/components/forms/use-lazy-schema-form'
import { ALL_COLUMN_TYPES, ALL_COMPRESSIONS, withCurrent } from '~/schemas/transform-value'
import type { ValidationView } from './__transform-editor.server'
import { FormSelect } from '~/components/forms/form-select'
import { Denied } from '~/components/layout/denied'
import { CodeField } from '~/components/forms/code-field'
import { SampleIngestButton, SampleIngestResult } from './__sample-ingest'
import { COLUMNS_INFERRED_FIELD } from './__transform-infer'

/** Intents that refill the form from the server: the form need not be valid to send them. */
const LOOSE_INTENTS = ['infer', 'upload']

/**
 * With scripts, the refill (Infer, Load transform) this form is waiting for: until its answer is on
 * the page, the form's other submits are disabled (issue 54, point 3): a Validate or Publish sent
 * meanwhile would cancel it and send the columns as they were. Without scripts the server makes up
 * for it (the columns inferred in place of the untouched defaults). Null when none is pending.
 */
function usePendingRefill(): string | null {
  const navigation = useNavigation()
  if (navigation.state === 'idle') return null
  const intent = String(navigation.formData?.get('intent') ?? '')
  return LOOSE_INTENTS.includes(intent) ? intent : null
}
// The schemas come after hydration (decision 077): zod stays out of the transform pages' first load.
const loadTransformSchemas = () => import('~/schemas/transform')
/** The form's fields as conform types them for the transform schema (read before the schema loads). */
type TransformFields = ReturnType<
  typeof useForm<z.input<typeof TransformFormSchema>, z.output<typeof TransformFormSchema>, string[]>
>[1]

/**
 * The transform form (create and edit): table, name, type, the output columns as a table of rows,
 * format options, settings, SQL and sample data. Every button is a submit of this one form, so
 * adding or removing a column, inferring, validating and uploading work without scripts and keep
 * everything typed; with scripts the column rows are added and removed in the browser.
 */
export function TransformEditor({
  tables,
  isTableFixed,
  defaultValue,
  constraint,
  lastResult,
  submitLabel,
  cancelTo,
  validation,
  notice,
  downloadHref,
  canIngest = false,
  ingestDenied,
  ingestToken,
  ingestNotice,
  deniedReason,
}: {
  tables: { value: string; label: string }[]
  /** Edit: the table cannot change (sent as a hidden field). */
  isTableFixed: boolean
  defaultValue: Record<string, unknown>
  /** `getZodConstraint(TransformFormSchema)` from the loader. */
  constraint: FormConstraint
  lastResult?: SubmissionResult<string[]>
  submitLabel: string
  cancelTo: string
  validation?: ValidationView | null
  notice?: string | null
  downloadHref?: string
  /** Edit: the sample can be sent through the saved transform into the table. */
  canIngest?: boolean
  /** Why the user may not ingest (`whyNot` in the loader): "Ingest the sample" shows disabled with it. */
  ingestDenied?: string | null
  /** The page's one-time token for "Ingest the sample" (a repeat of it loads nothing: decision 098). */
  ingestToken?: string
  /** What the last "Ingest the sample" did, shown beside the button. */
  ingestNotice?: string | null
  /** Why the user may not save (`whyNot` in the loader): the submit shows disabled with it. */
  deniedReason?: string | null
}) {
  const isHydrated = useHydrated()
  const pendingRefill = usePendingRefill()
  const [form, lazyFields] = useLazySchemaForm(loadTransformSchemas, {
    id: 'transform-editor',
    lastResult,
    defaultValue: defaultValue as never,
    constraint,
    schemaOf: (schemas, formData) =>
      LOOSE_INTENTS.includes(String(formData.get('intent') ?? ''))
        ? (schemas.LooseFormSchema as unknown as typeof TransformFormSchema)
        : schemas.TransformFormSchema,
  })
  const fields = lazyFields as unknown as TransformFields
  const type = fields.type.value ?? 'json'
  const showCsv = !isHydrated || type === 'csv'
  const showJson = !isHydrated || type !== 'csv'
  const columns = fields.columns.getFieldList()
  const tableLabel = tables.find((table) => table.value === fields.table.initialValue)?.label
  // a stored name that breaks the form's rule: named at the field, kept unless changed
  const storedName = fields.original.initialValue ? String(fields.name.initialValue ?? '') : ''
  const storedNameProblem =
    storedName && (fields.name.value ?? '') === storedName ? transformNameProblem(storedName) : undefined

  return (
    <FormCard
      deniedReason={deniedReason}
      form={form}
      submit={{ label: submitLabel, name: 'intent', value: 'save', disabled: Boolean(pendingRefill) }}
      cancelTo={cancelTo}
      encType="multipart/form-data"
    >
      {/* Enter in a field publishes (the first submit button of a form is the one Enter presses). */}
      <button
        type="submit"
        name="intent"
        value="save"
        tabIndex={-1}
        aria-hidden="true"
        disabled={Boolean(pendingRefill)}
        style={{ position: 'absolute', width: 1, height: 1, opacity: 0, pointerEvents: 'none' }}
      />
      {notice ? (
        <Box role="status" bg="blue.subtle" color="blue.fg" rounded="md" px="3" py="2" mb="4" fontSize="sm">
          {notice}
        </Box>
      ) : null}
      {inferredMark(fields) ? <input type="hidden" name={COLUMNS_INFERRED_FIELD} value="1" /> : null}
      {fields.original.initialValue ? (
        // the stored transform the form was rendered from: a save writes only what was changed onto it
        <input type="hidden" name={fields.original.name} value={String(fields.original.initialValue)} />
      ) : null}
      {isTableFixed ? (
        <>
          <input type="hidden" name={fields.table.name} value={String(fields.table.initialValue ?? '')} />
          <Text mb="4" fontSize="sm">
            Table: <strong>{tableLabel ?? '—'}</strong>
          </Text>
        </>
      ) : (
        <SelectField meta={fields.table} label="Table" placeholder="Select a table" options={tables} />
      )}
      <SimpleGrid columns={{ base: 1, md: 2 }} gapX="4">
        <Field
          meta={fields.name}
          label="Transform name"
          help={
            storedNameProblem
              ? `Stored value: ${storedNameProblem}. Kept as stored unless you change it.`
              : 'A letter first, then letters, digits and underscores; at most 64.'
          }
          inputProps={{ autoComplete: 'off' }}
        />
        <SelectField
          meta={fields.type}
          label="Type"
          options={TRANSFORM_TYPES.map((value) => ({ value, label: value.toUpperCase() }))}
        />
      </SimpleGrid>
      <TextareaField meta={fields.description} label="Description" rows={2} />

      <Section title="Output columns" id="columns-heading">
        <Text fontSize="xs" color="fg.muted" mb="2">
          Exactly one datetime or epoch column is primary. Format: a Go layout for datetime (2006-01-02T15:04:05Z),
          s/ms/us/ns for epoch. Elements: the element type of an array, or the key and value types of a map (string,
          uint64), nested as map&lt;string, string&gt;. Other keys: the column&apos;s other settings (source, default,
          script, virtual…) as JSON.
        </Text>
        {/* inline-size containment: the table's width never widens the page; it scrolls in this box.
            Positioned, so the visually hidden labels in its cells (position: absolute) scroll with it
            instead of widening the page from an ancestor outside the box. */}
        <Box overflowX="auto" position="relative" css={{ contain: 'inline-size' }}>
          <chakra.table
            w="full"
            fontSize="sm"
            aria-labelledby="columns-heading"
            css={{ '& td, & th': { px: '1', py: '1', verticalAlign: 'top', textAlign: 'left' } }}
          >
            <thead>
              <tr>
                <th>#</th>
                <th>Name</th>
                <th>Type</th>
                <th>Format</th>
                <th>Resolution</th>
                <th>Primary</th>
                <th>Ignore</th>
                <th>Index</th>
                <th>Fulltext</th>
                <th>Elements</th>
                <th>Other keys (JSON)</th>
                <th>
                  <chakra.span srOnly>Row actions</chakra.span>
                </th>
              </tr>
            </thead>
            <tbody>
              {columns.map((column, index) => (
                <ColumnRow
                  key={column.key}
                  meta={column}
                  index={index}
                  removeButton={
                    <Button
                      variant="ghost"
                      size="xs"
                      colorPalette="red"
                      {...form.remove.getButtonProps({ name: fields.columns.name, index })}
                      type="submit"
                      aria-label={`Remove column ${index + 1}`}
                    >
                      Remove
                    </Button>
                  }
                />
              ))}
            </tbody>
          </chakra.table>
        </Box>
        <ErrorList id={fields.columns.errorId} errors={fields.columns.errors} />
        <Button
          mt="2"
          size="sm"
          variant="outline"
          {...form.insert.getButtonProps({ name: fields.columns.name, defaultValue: { type: 'string', index: 'on' } })}
          type="submit"
        >
          Add column
        </Button>
      </Section>

      {showCsv ? (
        <Section title={isHydrated ? 'CSV format' : 'CSV format (used when the type is CSV)'}>
          <SimpleGrid columns={{ base: 2, md: 6 }} gapX="3">
            <Field meta={fields.delimiter} label="Delimiter" />
            <Field meta={fields.quote} label="Quote" />
            <Field meta={fields.comment} label="Comment" />
            <Field meta={fields.escape} label="Escape" />
            <Field meta={fields.skipHead} label="Skip head (lines)" inputProps={{ inputMode: 'numeric' }} />
            <Field meta={fields.bufferSize} label="Buffer size (bytes)" inputProps={{ inputMode: 'numeric' }} />
          </SimpleGrid>
          <HStack gap="6">
            <CheckboxField meta={fields.skipComments} label="Skip comments" />
            <CheckboxField meta={fields.windowsEnding} label="Windows line endings" />
          </HStack>
        </Section>
      ) : (
        <HiddenAsRendered fields={fields} names={CSV_FIELDS} />
      )}
      {showJson ? (
        <Section title={isHydrated ? 'JSON flattening' : 'JSON flattening (used when the type is JSON or HDX)'}>
          <CheckboxField meta={fields.flatteningActive} label="Flattening active" />
          <SimpleGrid columns={{ base: 2, md: 5 }} gapX="3">
            <Field meta={fields.depth} label="Depth" inputProps={{ inputMode: 'numeric' }} />
            <Field meta={fields.mapLeft} label="Map left" />
            <Field meta={fields.mapRight} label="Map right" />
            <Field meta={fields.sliceLeft} label="Slice left" />
            <Field meta={fields.sliceRight} label="Slice right" />
          </SimpleGrid>
        </Section>
      ) : (
        <HiddenAsRendered fields={fields} names={JSON_FIELDS} />
      )}

      <Section title="Settings">
        <CheckboxField
          meta={fields.isDefault}
          label="Default transform of the table"
          help="Ingest without a transform name uses the default one."
        />
        <SimpleGrid columns={{ base: 1, md: 2 }} gapX="4">
          <Field
            meta={fields.nullValues}
            label="Null values"
            help="Comma-separated values read as null, e.g. -, null"
          />
          <SelectField
            meta={fields.compression}
            label="Compression"
            options={withCurrent(ALL_COMPRESSIONS, fields.compression.initialValue).map((value) => ({
              value,
              label: value || '(empty)',
            }))}
          />
        </SimpleGrid>
        <CodeField meta={fields.sql} label="SQL transform" rows={2} language="sql" />
      </Section>

      <Section title="Sample data" id="sample-data">
        <FieldShell meta={fields.sampleData} label="Sample data (CSV with a header line, or JSON)">
          <Textarea
            {...getTextareaProps(fields.sampleData)}
            key={fields.sampleData.key}
            rows={6}
            fontFamily="mono"
            fontSize="xs"
          />
        </FieldShell>
        <FileInput name="sampleFile" label="…or upload a sample file" />
        <HStack gap="3" wrap="wrap" mb="4">
          <SubmitButton
            name="intent"
            value="infer"
            variant="outline"
            colorPalette="gray"
            size="sm"
            disabled={pendingRefill === 'upload'}
          >
            Infer columns from sample
          </SubmitButton>
          <SubmitButton
            name="intent"
            value="validate"
            variant="outline"
            colorPalette="gray"
            size="sm"
            disabled={Boolean(pendingRefill)}
          >
            Validate sample
          </SubmitButton>
          {canIngest && ingestDenied ? (
            <Denied label="Ingest the sample" reason={ingestDenied} />
          ) : canIngest ? (
            <SampleIngestButton token={ingestToken} disabled={Boolean(pendingRefill)} />
          ) : null}
        </HStack>
        <RefillNote intent={pendingRefill} />
        <SampleIngestResult notice={ingestNotice} />
        {validation ? <ValidationResult validation={validation} /> : null}
      </Section>

      <Section title="Transform file">
        <FieldShell
          meta={{ id: 'transformFile', errorId: 'transformFile-error', errors: form.allErrors.transformFile }}
          label="Upload a transform (JSON)"
        >
          <input
            id="transformFile"
            type="file"
            name="transformFile"
            accept=".json,application/json"
            aria-describedby={form.allErrors.transformFile ? 'transformFile-error' : undefined}
          />
        </FieldShell>
        <HStack gap="3" mb="2" wrap="wrap">
          <SubmitButton
            name="intent"
            value="upload"
            variant="outline"
            colorPalette="gray"
            size="sm"
            disabled={pendingRefill === 'infer'}
          >
            Load transform from file
          </SubmitButton>
          {downloadHref ? (
            <Button asChild size="sm" variant="outline">
              <Link to={downloadHref} reloadDocument>
                Download as JSON
              </Link>
            </Button>
          ) : null}
        </HStack>
      </Section>
    </FormCard>
  )
}

/** Whether the form's columns were filled from the sample (the hidden field posted back with them). */
function inferredMark(fields: TransformFields): boolean {
  const all = fields as unknown as Record<string, { initialValue?: unknown } | undefined>
  return Boolean(all[COLUMNS_INFERRED_FIELD]?.initialValue)
}

/** Why Validate and Publish are disabled while a refill runs (a status, read when it comes). */
function RefillNote({ intent }: { intent: string | null }) {
  return (
    <Box role="status" fontSize="sm" color="fg.muted" mb={intent ? '4' : '0'}>
      {intent === 'infer'
        ? 'Inferring the columns from the sample: Validate and Publish wait until they are filled in.'
        : intent === 'upload'
          ? 'Loading the transform from the file: Validate and Publish wait until it is filled in.'
          : null}
    </Box>
  )
}

function Section({ title, id, children }: { title: string; id?: string; children: ReactNode }) {
  return (
    <Box as="fieldset" borderTopWidth="1px" pt="4" mt="2" mb="4">
      <Heading as="h2" size="sm" mb="3" id={id}>
        {title}
      </Heading>
      {children}
    </Box>
  )
}

function FileInput({ name, label }: { name: string; label: string }) {
  return (
    <Box mb="3" fontSize="sm">
      <chakra.label htmlFor={name} display="block" mb="1">
        {label}
      </chakra.label>
      <input id={name} type="file" name={name} accept=".csv,.json,.txt,.log,.ndjson,text/*,application/json" />
    </Box>
  )
}

const ROW_FIELDS = [
  'name',
  'type',
  'format',
  'resolution',
  'primary',
  'ignore',
  'index',
  'fulltext',
  'elements',
  'extra',
]

type ColumnMeta = FieldMetadata<Record<string, unknown> | undefined, Record<string, unknown>, string[]>

/** One output column: its cells, each labelled "Column N …" for screen readers, errors under each. */
function ColumnRow({ meta, index, removeButton }: { meta: ColumnMeta; index: number; removeButton: ReactNode }) {
  const cols = meta.getFieldset() as Record<
    string,
    FieldMetadata<string | boolean | undefined, Record<string, unknown>, string[]>
  >
  const n = index + 1
  // stored values that break a form rule: named at their field; kept unless the operator changes them
  const notes: Record<string, string[]> = {}
  const current = Object.fromEntries(ROW_FIELDS.map((key) => [key, cols[key]!.value]))
  for (const note of storedRuleNotes({ ...current, original: cols.original!.initialValue }))
    (notes[note.path] ??= []).push(note.message)
  const text = (key: string, width: string, placeholder?: string) => {
    const field = cols[key]!
    const props = getInputProps(field as FieldMetadata<string>, { type: 'text' })
    return (
      <td>
        <Input
          {...props}
          key={props.key}
          size="sm"
          w={width}
          placeholder={placeholder}
          aria-label={`Column ${n} ${key}`}
          borderColor={field.errors?.length ? 'border.error' : undefined}
        />
        <ErrorList id={field.errorId} errors={field.errors} />
        <Notes notes={notes[key]} />
      </td>
    )
  }
  const select = (key: string, choices: readonly string[], blank?: string) => {
    const field = cols[key]!
    const props = getSelectProps(field as FieldMetadata<string>)
    // a stored value the list does not name is offered too (a select posts what it shows)
    const options = withCurrent(choices, field.initialValue).filter((option) => blank === undefined || option)
    return (
      <td>
        <FormSelect
          {...props}
          key={props.key}
          aria-label={`Column ${n} ${key}`}
          size="sm"
          w="full"
          // the table scrolls in its box on a narrow screen: a select keeps room to show its value
          minW="7rem"
          h="9"
          isInvalid={Boolean(field.errors?.length)}
        >
          {blank !== undefined ? <option value="">{blank}</option> : null}
          {options.map((option) => (
            <option key={option} value={option}>
              {option || '(none)'}
            </option>
          ))}
        </FormSelect>
        <ErrorList id={field.errorId} errors={field.errors} />
        <Notes notes={notes[key]} />
      </td>
    )
  }
  const check = (key: string) => {
    const field = cols[key]!
    const props = getInputProps(field as FieldMetadata<boolean>, { type: 'checkbox' })
    return (
      <td>
        <input {...props} key={props.key} aria-label={`Column ${n} ${key}`} />
        <ErrorList id={field.errorId} errors={field.errors} />
        <Notes notes={notes[key]} />
      </td>
    )
  }
  const original = cols.original!
  return (
    <tr>
      <td>
        <Text pt="2" color="fg.muted">
          {n}
        </Text>
        {original.initialValue ? (
          <input type="hidden" name={original.name} defaultValue={String(original.initialValue)} key={original.key} />
        ) : null}
      </td>
      {text('name', '10rem')}
      {select('type', ALL_COLUMN_TYPES)}
      {text('format', '11rem')}
      {select('resolution', RESOLUTIONS, '—')}
      {check('primary')}
      {check('ignore')}
      {check('index')}
      {check('fulltext')}
      {text('elements', '10rem', 'string, uint64')}
      {text('extra', '14rem', '{"source": …}')}
      <td>{removeButton}</td>
    </tr>
  )
}

/** Rules a stored value breaks: shown at the field, as a note (it does not block a save until changed). */
function Notes({ notes }: { notes?: string[] }) {
  if (!notes?.length) return null
  return (
    <Text fontSize="xs" color="orange.fg" maxW="14rem">
      {`Stored value: ${notes.join('; ')}. Kept as stored unless you change it.`}
    </Text>
  )
}

/** The validator's answer: the rows as the cluster would store them, then its errors row by row. */
export function ValidationResult({ validation }: { validation: ValidationView }) {
  return (
    <Stack gap="3" id="validation" aria-labelledby="validation-heading" as="section" tabIndex={-1}>
      <Heading as="h3" size="sm" id="validation-heading">
        Validation:{' '}
        {validation.errors.length
          ? `${validation.errors.length} of ${validation.numRows} rows have errors`
          : `all ${validation.numRows} rows parsed`}
      </Heading>
      {validation.rows.length ? (
        <Box overflowX="auto" borderWidth="1px" rounded="md">
          <chakra.table
            fontSize="xs"
            w="full"
            css={{
              '& td, & th': { px: '2', py: '1', borderBottomWidth: '1px', textAlign: 'left', whiteSpace: 'nowrap' },
            }}
          >
            <caption style={{ textAlign: 'left', padding: '4px 8px' }}>
              Parsed rows, as the cluster would store them
            </caption>
            <thead>
              <tr>
                {validation.columns.map((column) => (
                  <th key={column.name} scope="col">
                    {column.name}
                    <chakra.span color="fg.muted" fontWeight="normal">
                      {' '}
                      {column.type}
                      {column.primary ? ' · primary' : ''}
                    </chakra.span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {validation.rows.map((row, index) => (
                <tr key={index}>
                  {validation.columns.map((column) => (
                    <td key={column.name}>
                      <code>{row[column.name] ?? ''}</code>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </chakra.table>
        </Box>
      ) : null}
      {validation.errors.length ? (
        <Box role="alert" bg="red.subtle" color="red.fg" rounded="md" px="3" py="2" fontSize="sm">
          <Text fontWeight="medium">Rows the cluster refused</Text>
          <chakra.ul pl="4">
            {validation.errors.map((error) => (
              <li key={`${error.row}-${error.message}`}>
                Row {error.row}: {error.message.replace(/^row \d+: /, '')}
              </li>
            ))}
          </chakra.ul>
        </Box>
      ) : null}
    </Stack>
  )
}

/** The CSV section's fields and the JSON flattening section's (with scripts, only the type's section shows). */
const CSV_FIELDS = [
  'delimiter',
  'quote',
  'comment',
  'escape',
  'skipHead',
  'bufferSize',
  'skipComments',
  'windowsEnding',
]
const JSON_FIELDS = ['flatteningActive', 'depth', 'mapLeft', 'mapRight', 'sliceLeft', 'sliceRight']

/**
 * A section scripts hide (the other type's format) posts its fields as the form rendered them, so
 * a save keeps them as stored (decision 056): unposted, they read as cleared (a blank delimiter the
 * cluster refuses, quotes and flags written empty). A checkbox posts "on" only when it was ticked.
 */
function HiddenAsRendered({ fields, names }: { fields: TransformFields; names: readonly string[] }) {
  const all = fields as unknown as Record<string, { name: string; initialValue?: unknown }>
  return (
    <>
      {names.map((name) => {
        const value = all[name]?.initialValue
        if (value === undefined || value === null || (typeof value !== 'string' && typeof value !== 'number'))
          return null
        return <input key={name} type="hidden" name={all[name]!.name} value={String(value)} />
      })}
    </>
  )
}
