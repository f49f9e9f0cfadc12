import { getInputProps, getSelectProps, type FieldMetadata } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { chakra, SimpleGrid } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { HStack, Stack } from '~/components/ui/stack'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { requireApi, type ClusterApi } from '~/api/client.server'
import { listCredentials } from '~/api/credentials.server'
import { searchBatchPools, type PoolChoice } from '~/api/pools.server'
import { createBatchJob } from '~/api/jobs.server'
import { loadTableTransformPick, sentTransform } from '~/api/transforms.server'
import { TableSearchForm } from '~/components/forms/table-search-field'
import { CheckboxField } from '~/components/forms/checkbox-field'
import { ErrorList } from '~/components/forms/error-list'
import { Field, TextareaField } from '~/components/forms/field'
import { SelectField } from '~/components/forms/select-field'
import { BatchJobFormSchema, type BatchJobForm } from '~/schemas/job'
import { CLOUDS, sourceSubtype, sourceUrl } from '~/schemas/job-values'
import { loadFromCluster, noneWhenDenied, replyFromCluster } from '~/api/policies.server'
import type { RouteHandle } from '~/utils/handle'
import { redirectWithToast } from '~/utils/toast.server'

import { NewJobForm } from './__job-ui'
import { whyNotCreate } from '~/api/access.server'
import { useLazySchemaForm } from '~/components/forms/use-lazy-schema-form'
import { FormSelect } from '~/components/forms/form-select'
import { siblingValue } from '~/components/forms/early-changes'
import { defaultTransformOf, transformChoicesOf, transformForTable } from '~/utils/table-transform'
import { isDefaultChoice, useTableTransforms } from '~/components/forms/use-table-transforms'
import { routeErrorBoundary } from '~/components/layout/route-error'

export const handle: RouteHandle = { docsTopic: 'batch' }

// Fetched after hydration; the HTML constraints come from the loader (decision 032).
const loadBatchJobFormSchema = () => import('~/schemas/job').then((module) => module.BatchJobFormSchema)

/** The advanced fields: form name, label, the cluster's setting and the docs' default (the placeholder). */
const ADVANCED: { name: keyof BatchJobForm; label: string; setting: string; placeholder: string; help?: string }[] = [
  {
    name: 'maxFiles',
    label: 'Dry run max files',
    setting: 'max_files',
    placeholder: '0',
    help: 'Read at most this many files; 0 reads them all.',
  },
  {
    name: 'maxMinutes',
    label: 'Max minutes',
    setting: 'max_minutes_per_partition',
    placeholder: '15',
    help: 'Minutes of data per partition.',
  },
  {
    name: 'maxRows',
    label: 'Max rows',
    setting: 'max_rows_per_partition',
    placeholder: '33554432',
    help: 'Rows per partition.',
  },
  {
    name: 'maxActive',
    label: 'Max active',
    setting: 'max_active_partitions',
    placeholder: '576',
    help: 'Partitions open at once.',
  },
  {
    name: 'inputAggregation',
    label: 'Input aggregation',
    setting: 'input_aggregation',
    placeholder: '1536000000',
    help: 'Bytes read per unit of work.',
  },
  {
    name: 'inputConcurrency',
    label: 'Input concurrency',
    setting: 'input_concurrency',
    placeholder: '1',
    help: 'Files read at once.',
  },
]

/** The cluster's error keys → this form's fields (a key the form lacks becomes a form error). */
function batchJobFields(form: BatchJobForm): Record<string, string> {
  return {
    name: 'name',
    description: 'description',
    'settings.source.table': 'table',
    'settings.source.transform': 'transform',
    'settings.source.settings.url': form.sourceKind === 'bucket' ? 'bucketName' : 'url',
    'settings.source.settings': form.sourceKind === 'bucket' ? 'bucketName' : 'url',
    'settings.source': 'table',
    'settings.source.settings.credential_id': 'credential',
    'settings.regex_filter': 'regexFilter',
    'settings.pool_name': 'pool',
    'settings.sql_transform': 'sql',
    'settings.dry_run': 'dryRun',
    ...Object.fromEntries(ADVANCED.map((field) => [`settings.${field.setting}`, field.name])),
  }
}

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  // the tables a search finds, not every table of the org (issue 33)
  const [pick, credentials, pools, denied] = await Promise.all([
    loadFromCluster(() => loadTableTransformPick(api, new URL(request.url), { pickFirst: true })),
    loadFromCluster(() => credentialOptions(api)),
    loadFromCluster(() => poolOptions(api)),
    whyNotCreate(api, '/jobs/batch-jobs/create'),
  ])
  const tables = pick.options
  // `?table=project.table` preselects a table (a deep link); otherwise the first one listed.
  const table = pick.chosen ?? tables[0]
  return {
    denied,
    tables,
    search: pick.search,
    table: table?.value ?? '',
    transform: defaultTransformOf(table),
    credentials,
    pools: pools.choices,
    morePools: pools.hasMore,
    constraint: getZodConstraint(BatchJobFormSchema),
  }
}

/**
 * The pools the pool field suggests (the first by name: a search finds the others, issue 33); none
 * when the user may not list pools (the field is optional and takes any name the cluster knows).
 */
function poolOptions(api: ClusterApi): Promise<{ choices: PoolChoice[]; hasMore: boolean }> {
  return noneWhenDenied(() => searchBatchPools(api, ''), { choices: [], hasMore: false })
}

/** The org's credentials as options; none when the user may not list them (the field is optional). */
async function credentialOptions(api: ClusterApi): Promise<{ value: string; label: string }[]> {
  const credentials = await noneWhenDenied(() => listCredentials(api), [])
  return credentials.map((credential) => ({
    value: credential.uuid,
    label: credential.type ? `${credential.name} (${credential.type})` : credential.name,
  }))
}

export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const submission = parseWithZod(await request.formData(), { schema: BatchJobFormSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const form = submission.value
  const settings: Record<string, unknown> = {}
  if (form.dryRun) settings.dry_run = true
  if (form.regexFilter) settings.regex_filter = form.regexFilter
  if (form.pool) settings.pool_name = form.pool
  if (form.sql) settings.sql_transform = form.sql
  for (const field of ADVANCED) {
    const value = form[field.name]
    if (typeof value === 'number') settings[field.setting] = value
  }
  const bucket = {
    ...(form.sourceKind === 'bucket'
      ? {
          cloud: form.cloud,
          bucket_name: form.bucketName,
          bucket_path: form.bucketPath,
          region: form.region,
          endpoint: form.endpoint,
        }
      : {}),
    ...(form.credential ? { credential_id: form.credential } : {}),
  }
  try {
    // `project.table:*` (a table whose transforms the page did not read) is its default, read now
    const transform = await sentTransform(api, form.table, form.transform)
    if (transform === null)
      return data(
        { result: submission.reply({ fieldErrors: { transform: [`${form.table} has no transform`] } }) },
        { status: 400 },
      )
    const job = await createBatchJob(api, {
      name: form.name,
      description: form.description,
      table: form.table,
      transform,
      url: sourceUrl(form),
      subtype: sourceSubtype(form),
      sourceSettings: bucket,
      settings,
    })
    return redirectWithToast(`/jobs/batch-jobs?job=${encodeURIComponent(job.uuid)}`, {
      title: `Batch job ${job.name} created`,
      type: 'success',
    })
  } catch (error) {
    return replyFromCluster(submission, error, { rename: batchJobFields(form) })
  }
}

type Meta = FieldMetadata<string | undefined, Record<string, unknown>, string[]>

export default function NewBatchJobRoute() {
  const loaderData = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const isHydrated = useHydrated()
  const [form, fields] = useLazySchemaForm(loadBatchJobFormSchema, {
    id: 'new-batch-job',
    constraint: loaderData.constraint,
    lastResult: actionData?.result,
    defaultValue: { table: loaderData.table, transform: loaderData.transform, sourceKind: 'url', cloud: 'aws' },
  })
  const table = String(fields.table.value ?? '')
  const sourceKind = fields.sourceKind.value === 'bucket' ? 'bucket' : 'url'
  const advancedNames = ['dryRun', 'regexFilter', 'pool', 'sql', ...ADVANCED.map((field) => field.name)] as const
  const isAdvancedOpen = advancedNames.some(
    (name) => fields[name].errors?.length || (fields[name].initialValue ?? '') !== '',
  )

  // With scripts: a new table selects its default transform (unless one of its own is picked) and the
  // transform list shows only its own, read when it is picked (decision 085). The picked one is read
  // from the form: this also runs for a table changed before hydration (useEarlyChanges), when the
  // form's state does not hold it yet.
  const { options: tables, readTransforms } = useTableTransforms(loaderData.tables, (read) => {
    // the table's transforms came while it is still picked with its default's option: its real default
    if (table === read && isDefaultChoice(read, String(fields.transform.value ?? '')))
      form.update({ name: fields.transform.name, value: transformForTable(tables, read, '') })
  })
  const onTableChange = (select: HTMLSelectElement) => {
    form.update({
      name: fields.transform.name,
      value: transformForTable(tables, select.value, siblingValue(select, fields.transform.name)),
    })
    readTransforms(select.value)
  }
  const transformGroups = isHydrated ? tables.filter((entry) => entry.value === table) : tables
  const transformProps = getSelectProps(fields.transform)
  const tableProps = getSelectProps(fields.table)

  return (
    <Stack gap="4">
      <TableSearchForm search={loaderData.search} keep={{ table: loaderData.table }} />
      <NewJobForm
        title="New batch job"
        intro={
          'Loads every file under a URL or bucket path (CSV or JSON, gzipped or not) into a table ' +
          'through one of its transforms. The job starts as soon as it is created.'
        }
        form={form}
        hasTables={loaderData.tables.length > 0}
        denied={loaderData.denied}
        submit={{ label: 'Create batch job' }}
        cancelTo="/jobs/batch-jobs"
      >
        <Field meta={fields.name} label="Name" inputProps={{ autoComplete: 'off' }} />
        <TextareaField meta={fields.description} label="Description" rows={2} />

        <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
          <Box mb="4">
            <Label htmlFor={fields.table.id}>Table</Label>
            <FormSelect
              {...tableProps}
              key={tableProps.key}
              isInvalid={Boolean(fields.table.errors?.length)}
              onChange={(event) => onTableChange(event.currentTarget)}
            >
              <option value="">Select a table</option>
              {loaderData.tables.map((entry) => (
                <option key={entry.value} value={entry.value}>
                  {entry.value}
                </option>
              ))}
            </FormSelect>
            <ErrorList id={fields.table.errorId} errors={fields.table.errors} />
          </Box>
          <Box mb="4">
            <Label htmlFor={fields.transform.id}>Transform</Label>
            <FormSelect
              {...transformProps}
              key={transformProps.key}
              isInvalid={Boolean(fields.transform.errors?.length)}
            >
              <option value="">Select a transform</option>
              {transformGroups.map((entry) => (
                <optgroup key={entry.value} label={entry.value}>
                  {transformChoicesOf(entry).map((transform) => (
                    <option key={transform.value} value={transform.value}>
                      {transform.label}
                    </option>
                  ))}
                </optgroup>
              ))}
            </FormSelect>
            {isHydrated ? null : (
              <Box fontSize="xs" color="fg.muted" mt="1">
                Transforms are grouped by table: pick one of the selected table (a table listed with “Its default
                transform” gets the one its transforms mark default).
              </Box>
            )}
            <ErrorList id={fields.transform.errorId} errors={fields.transform.errors} />
          </Box>
        </SimpleGrid>

        <chakra.fieldset borderWidth="1px" rounded="md" p="4" mb="4">
          <chakra.legend px="1" fontWeight="medium" fontSize="sm">
            Source
          </chakra.legend>
          <HStack gap="6" mb="3" role="radiogroup" aria-label="Where the files are">
            <SourceKindRadio meta={fields.sourceKind} value="url" label="A URL" />
            <SourceKindRadio meta={fields.sourceKind} value="bucket" label="A bucket" />
          </HStack>
          {!isHydrated || sourceKind === 'url' ? (
            <Field
              meta={fields.url}
              label="URL"
              help={
                <>
                  {isHydrated ? null : 'Used when “A URL” is selected. '}e.g. <code>s3://sample-bucket/web-logs/</code>,{' '}
                  <code>gs://bucket/path/</code> or a path on the cluster (<code>file:///data/in/</code>).
                </>
              }
              inputProps={{ autoComplete: 'off', placeholder: 's3://bucket/path/' }}
            />
          ) : null}
          {!isHydrated || sourceKind === 'bucket' ? (
            <Box>
              {isHydrated ? null : (
                <Text fontSize="xs" color="fg.muted" mb="2">
                  Used when “A bucket” is selected.
                </Text>
              )}
              <SimpleGrid columns={{ base: 1, md: 2 }} columnGap="4">
                <SelectField
                  meta={fields.cloud as Meta}
                  label="Cloud"
                  options={CLOUDS.map(({ value, label }) => ({ value, label }))}
                />
                <Field
                  meta={fields.bucketName}
                  label="Bucket name"
                  inputProps={{ autoComplete: 'off', placeholder: 'sample-bucket' }}
                />
                <Field
                  meta={fields.bucketPath}
                  label="Bucket path"
                  inputProps={{ autoComplete: 'off', placeholder: 'web-logs/' }}
                />
                <Field
                  meta={fields.region}
                  label="Region"
                  inputProps={{ autoComplete: 'off', placeholder: 'us-east-1' }}
                />
                <Field
                  meta={fields.endpoint}
                  label="Endpoint"
                  inputProps={{ autoComplete: 'off', placeholder: 'https://s3.us-east-1.amazonaws.com' }}
                />
              </SimpleGrid>
            </Box>
          ) : null}
          <SelectField
            meta={fields.credential as Meta}
            label="Credential"
            options={loaderData.credentials}
            placeholder="None: a public bucket, or the cluster's own access"
            help={
              loaderData.credentials.length ? undefined : 'No credentials yet: add one under Security → Credentials.'
            }
          />
        </chakra.fieldset>

        <chakra.details open={isAdvancedOpen || undefined} borderWidth="1px" rounded="md" p="4" mb="4">
          <chakra.summary cursor="pointer" fontWeight="medium" fontSize="sm">
            Advanced options
          </chakra.summary>
          <Box mt="4">
            <CheckboxField
              meta={fields.dryRun}
              label="Dry run"
              help="Read and check the files without loading any rows."
            />
            <PoolField meta={fields.pool} first={loaderData.pools} hasMore={loaderData.morePools} />
            <TextareaField
              meta={fields.sql}
              label="SQL"
              rows={3}
              isCode
              help={
                <>
                  What of each file the table stores: a SELECT over the file's rows as <code>{'{STREAM}'}</code>, e.g.{' '}
                  <code>{'SELECT * FROM {STREAM} WHERE status >= 400'}</code>. Checked on the cluster when the job is
                  created.
                </>
              }
            />
            <SimpleGrid columns={{ base: 1, md: 2 }} columnGap="4">
              {ADVANCED.map((field) => (
                <Field
                  key={field.name}
                  meta={fields[field.name] as Meta}
                  label={field.label}
                  help={field.help}
                  inputProps={{ inputMode: 'numeric', placeholder: field.placeholder }}
                />
              ))}
            </SimpleGrid>
            <Field
              meta={fields.regexFilter}
              label="Regex filter"
              help="Only files whose path matches this regular expression are read."
              inputProps={{ autoComplete: 'off', placeholder: '.*\\.json(\\.gz)?$' }}
            />
          </Box>
        </chakra.details>
      </NewJobForm>
    </Stack>
  )
}

function Label({ htmlFor, children }: { htmlFor: string; children: string }) {
  return (
    <chakra.label htmlFor={htmlFor} display="block" fontWeight="medium" fontSize="sm" mb="1">
      {children}
    </chakra.label>
  )
}

function SourceKindRadio({
  meta,
  value,
  label,
}: {
  meta: FieldMetadata<string | undefined, Record<string, unknown>, string[]>
  value: string
  label: string
}) {
  const props = getInputProps(meta, { type: 'radio', value })
  const id = `${meta.id}-${value}`
  return (
    <chakra.label htmlFor={id} display="inline-flex" alignItems="center" gap="2" fontSize="sm" cursor="pointer">
      <input {...props} key={props.key} id={id} />
      {label}
    </chakra.label>
  )
}

/**
 * The pool field: a name typed, with the pools suggested (a `<datalist>`). Without scripts the
 * browser suggests from the first pools by name and any other pool is typed in full; with scripts
 * the suggestions follow what is typed (`/resources/pool-search`, 200 ms after the last key), so any
 * of 500 pools is found without a list of 500 (issue 33). The cluster refuses a name it lacks, on the field.
 */
function PoolField({ meta, first, hasMore }: { meta: Meta; first: PoolChoice[]; hasMore: boolean }) {
  const [found, setFound] = useState<{ choices: PoolChoice[]; hasMore: boolean; q: string }>({
    choices: first,
    hasMore,
    q: '',
  })
  const timer = useRef<ReturnType<typeof setTimeout>>()
  useEffect(() => () => clearTimeout(timer.current), [])
  const onInput = (event: FormEvent<HTMLInputElement>) => {
    const q = event.currentTarget.value.trim()
    clearTimeout(timer.current)
    timer.current = setTimeout(() => {
      fetch(`/resources/pool-search?q=${encodeURIComponent(q)}`)
        .then((response) => (response.ok ? response.json() : null))
        .then((answer: { choices: PoolChoice[]; hasMore: boolean } | null) => {
          if (answer) setFound({ ...answer, q })
        })
        .catch(() => {})
    }, 200)
  }
  const listId = `${meta.id}-suggestions`
  return (
    <>
      <Field
        meta={meta}
        label="Pool"
        help={
          <>
            The ingest pool whose workers load the files; empty: the cluster&apos;s batch or intake pool.{' '}
            {found.q && !found.choices.length
              ? `No batch pool's name holds “${found.q}”.`
              : found.hasMore
                ? `Suggests the first ${found.choices.length} by name: type to find another.`
                : null}
          </>
        }
        inputProps={{ list: listId, autoComplete: 'off', placeholder: 'intake-head', onInput }}
      />
      <datalist id={listId}>
        {found.choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </datalist>
    </>
  )
}

export const meta: MetaFunction = () => [{ title: 'New batch job · Jobs · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({
  title: 'The batch job form could not be shown',
  level: 2,
  back: { to: '/jobs/batch-jobs', label: 'Back to the batch jobs' },
})
