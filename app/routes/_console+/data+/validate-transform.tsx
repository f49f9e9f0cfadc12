import { Stack } from '~/components/ui/stack'
import { Textarea } from '~/components/ui/textarea'
import { getTextareaProps } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { ClusterError } from '~/api/errors.server'
import { loadFromCluster, nullOnMissing } from '~/api/policies.server'
import { getTransform, validateTransform } from '~/api/transforms.server'
import { FieldShell } from '~/components/forms/field-shell'
import { FormCard } from '~/components/forms/form-card'
import { SelectField } from '~/components/forms/select-field'
import { useLazySchemaForm } from '~/components/forms/use-lazy-schema-form'
import { PageHeader } from '~/components/layout/page-header'
import { parseTransformJson, ValidateTransformSchema } from '~/schemas/transform'
import type { RouteHandle } from '~/utils/handle'
import { ValidationResult } from './__transform-editor'
import { loadTableChoices, loadTablePick, splitTableValue } from '~/services/table-choices.server'
import { validationView } from './__transform-editor.server'
import { routeErrorBoundary } from '~/components/layout/route-error'
import { CodeField } from '~/components/forms/code-field'

export const handle: RouteHandle = { docsTopic: 'transform' }

/** `?project=&table=&transform=` fills the schema with that transform's JSON. */
export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const { tables, table } = await loadTablePick(api, url)
  const transformId = url.searchParams.get('transform')
  let schema = ''
  let sampleData = ''
  if (table && transformId) {
    const { projectId, tableId } = splitTableValue(table)
    const transform = await loadFromCluster(() =>
      nullOnMissing(() => getTransform(api, projectId, tableId, transformId)),
    )
    if (transform) {
      const { sample_data: sample, ...settings } = transform.settings ?? {}
      schema = JSON.stringify({ name: transform.name, type: transform.type, settings }, null, 2)
      sampleData = typeof sample === 'string' ? sample : sample ? JSON.stringify(sample) : ''
    }
  }
  return {
    tables: tables.map(({ value, label }) => ({ value, label })),
    defaultValue: { table, schema, sampleData },
    // the form's HTML constraints: its schema loads after hydration (decision 077)
    constraint: getZodConstraint(ValidateTransformSchema),
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const formData = await request.formData()
  for (const [file, field] of [
    ['schemaFile', 'schema'],
    ['sampleFile', 'sampleData'],
  ] as const) {
    const upload = formData.get(file)
    if (upload && typeof upload !== 'string' && upload.size > 0) formData.set(field, await upload.text())
    formData.delete(file)
  }
  const submission = parseWithZod(formData, { schema: ValidateTransformSchema })
  if (submission.status !== 'success') return data({ result: submission.reply(), validation: null }, { status: 400 })
  const transform = parseTransformJson(submission.value.schema)!
  const tables = await loadFromCluster(() => loadTableChoices(api))
  const tableRef = tables.find((choice) => choice.value === submission.value.table)?.label ?? ''
  try {
    const result = await validateTransform(
      api,
      { table: tableRef },
      { name: transform.name, type: transform.type ?? 'json', settings: transform.settings },
      submission.value.sampleData,
    )
    return data({ result: submission.reply(), validation: validationView(result) })
  } catch (error) {
    if (error instanceof ClusterError && error.status === 400) {
      const body = error.body as { message?: unknown } | undefined
      const message = typeof body?.message === 'string' ? body.message : error.message
      return data(
        { result: submission.reply({ fieldErrors: { schema: [message] } }), validation: null },
        { status: 400 },
      )
    }
    throw error
  }
}

// The schema comes after hydration (decision 077): zod stays out of the page's first load.
const loadValidateTransformSchema = () => import('~/schemas/transform').then((module) => module.ValidateTransformSchema)

export default function ValidateTransformRoute() {
  const { tables, defaultValue, constraint } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [form, fields] = useLazySchemaForm(loadValidateTransformSchema, {
    id: 'validate-transform',
    constraint,
    lastResult: actionData?.result,
    defaultValue,
  })
  return (
    <Stack gap="4" maxW="5xl">
      <PageHeader
        title="Validate transform"
        description={
          'Check a transform against sample data on the cluster: see the rows as they would be ' +
          'stored, or the errors row by row. Nothing is stored.'
        }
        mb="0"
      />
      <FormCard form={form} submit={{ label: 'Validate' }} encType="multipart/form-data">
        <SelectField meta={fields.table} label="Table (optional)" placeholder="No table" options={tables} />
        <CodeField meta={fields.schema} label="Transform (JSON)" rows={10} language="json" />
        <FileLine id="schemaFile" label="…or upload the transform file" />
        <FieldShell meta={fields.sampleData} label="Sample data">
          <Textarea
            {...getTextareaProps(fields.sampleData)}
            key={fields.sampleData.key}
            rows={6}
            fontFamily="mono"
            fontSize="xs"
          />
        </FieldShell>
        <FileLine id="sampleFile" label="…or upload a sample file" />
      </FormCard>
      {actionData?.validation ? <ValidationResult validation={actionData.validation} /> : null}
    </Stack>
  )
}

function FileLine({ id, label }: { id: string; label: string }) {
  return (
    <p style={{ marginBottom: 16, fontSize: 14 }}>
      <label htmlFor={id} style={{ display: 'block', marginBottom: 4 }}>
        {label}
      </label>
      <input id={id} name={id} type="file" />
    </p>
  )
}

export const meta: MetaFunction = () => [{ title: 'Validate transform · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({ title: 'The transform could not be validated' })
