import { getSelectProps } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { chakra } from '@chakra-ui/react'
import { Box } from '~/components/ui/box'
import { HStack, Stack } from '~/components/ui/stack'
import { Button } from '~/components/ui/button'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { requireApi } from '~/api/client.server'
import { createAlterJob, engineMessage } from '~/api/jobs.server'
import { searchTables } from '~/api/table-search.server'
import { tableTransformOption } from '~/api/transforms.server'
import { TableSearchForm } from '~/components/forms/table-search-field'
import { ErrorList } from '~/components/forms/error-list'
import { AlterJobFormSchema } from '~/schemas/job'
import { alterTemplate, isTemplateOrEmpty } from '~/schemas/job-values'
import { loadFromCluster, replyFromCluster } from '~/api/policies.server'
import type { RouteHandle } from '~/utils/handle'
import { redirectWithToast } from '~/utils/toast.server'

import { NewJobForm } from './__job-ui'
import { useLazySchemaForm } from '~/components/forms/use-lazy-schema-form'
import { FormSelect } from '~/components/forms/form-select'
import { siblingValue } from '~/components/forms/early-changes'
import { whyNotCreate } from '~/api/access.server'
import { routeErrorBoundary } from '~/components/layout/route-error'
import { CodeField } from '~/components/forms/code-field'

export const handle: RouteHandle = { docsTopic: 'alter' }

// Fetched after hydration; the HTML constraints come from the loader (decision 032).
const loadAlterJobFormSchema = () => import('~/schemas/job').then((module) => module.AlterJobFormSchema)

const TEMPLATE_INTENT = 'template'

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  // `?table=project.table` (a deep link) picks the table and fills the template; else the first table.
  // The tables offered are what `?table_q=` finds, not every table of the org (issue 33).
  const wanted = url.searchParams.get('table') ?? ''
  const q = (url.searchParams.get('table_q') ?? '').trim()
  const [{ choices, hasMore }, chosen, denied] = await Promise.all([
    loadFromCluster(() => searchTables(api, q)),
    wanted ? loadFromCluster(() => tableTransformOption(api, wanted)) : null,
    whyNotCreate(api, '/jobs/alter-jobs/create'),
  ])
  const tables = choices.map((choice) => `${choice.project}.${choice.name}`)
  if (chosen && !tables.includes(wanted)) tables.unshift(wanted)
  const table = chosen ? wanted : (tables[0] ?? '')
  return {
    denied,
    tables,
    search: { q, choices, hasMore },
    table,
    sql: table ? alterTemplate(table) : '',
    constraint: getZodConstraint(AlterJobFormSchema),
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: AlterJobFormSchema })

  // "Use template" without scripts: the same form again, its SQL replaced by the chosen table's template.
  if (formData.get('intent') === TEMPLATE_INTENT) {
    const table = typeof submission.payload.table === 'string' ? submission.payload.table : ''
    submission.payload.sql = table ? alterTemplate(table) : ''
    return data(
      { result: { status: undefined, initialValue: submission.payload as Record<string, string> } },
      { status: 200 },
    )
  }

  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  let jobId: string
  try {
    jobId = await createAlterJob(api, submission.value.sql)
  } catch (error) {
    // The engine's refusal (syntax, unknown column or table) belongs to the SQL field, word for word.
    const message = engineMessage(error)
    if (message) return data({ result: submission.reply({ fieldErrors: { sql: [message] } }) }, { status: 400 })
    return replyFromCluster(submission, error)
  }
  return redirectWithToast(`/jobs/alter-jobs?job=${encodeURIComponent(jobId)}`, {
    title: 'Alter job created: counting the rows it changes',
    type: 'success',
  })
}

export default function NewAlterJobRoute() {
  const loaderData = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const isHydrated = useHydrated()
  const [form, fields] = useLazySchemaForm(loadAlterJobFormSchema, {
    id: 'new-alter-job',
    constraint: loaderData.constraint,
    lastResult: actionData?.result?.status ? actionData.result : undefined,
    defaultValue: actionData?.result?.initialValue ?? { table: loaderData.table, sql: loaderData.sql },
  })
  const tableProps = getSelectProps(fields.table)

  // With scripts, picking a table rewrites the SQL only while it is still a template (nothing typed is
  // lost). The SQL is read from the form: this also runs for a table picked before hydration
  // (useEarlyChanges), when the form's state does not hold what was typed yet.
  const onTableChange = (select: HTMLSelectElement) => {
    if (isTemplateOrEmpty(siblingValue(select, fields.sql.name)))
      form.update({ name: fields.sql.name, value: select.value ? alterTemplate(select.value) : '' })
  }

  return (
    <Stack gap="4">
      <TableSearchForm search={loaderData.search} keep={{ table: loaderData.table }} />
      <NewJobForm
        title="New alter job"
        intro={
          <>
            Write an <code>ALTER TABLE project.table DELETE WHERE …</code> or{' '}
            <code>ALTER TABLE project.table UPDATE column = value WHERE …</code> statement. The job counts the rows it
            touches and waits for you to commit it; nothing changes before that.
          </>
        }
        form={form}
        hasTables={loaderData.tables.length > 0}
        denied={loaderData.denied}
        submit={{ label: 'Create alter job', name: 'intent', value: 'create' }}
        cancelTo="/jobs/alter-jobs"
      >
        <Box mb="4">
          <chakra.label htmlFor={fields.table.id} display="block" fontWeight="medium" fontSize="sm" mb="1">
            Table
          </chakra.label>
          <HStack gap="2" align="stretch">
            <FormSelect
              {...tableProps}
              key={tableProps.key}
              onChange={(event) => onTableChange(event.currentTarget)}
              flex="1"
            >
              {loaderData.tables.length ? null : <option value="">No tables yet</option>}
              {loaderData.tables.map((table) => (
                <option key={table} value={table}>
                  {table}
                </option>
              ))}
            </FormSelect>
            {isHydrated ? null : (
              <Button type="submit" name="intent" value={TEMPLATE_INTENT} variant="outline" h="10" formNoValidate>
                Use template
              </Button>
            )}
          </HStack>
          <Box fontSize="xs" color="fg.muted" mt="1">
            {isHydrated
              ? 'Picking a table fills in its template while the SQL is still untouched.'
              : '“Use template” replaces the SQL with a DELETE template for the chosen table.'}
          </Box>
          <ErrorList id={fields.table.errorId} errors={fields.table.errors} />
        </Box>
        <CodeField meta={fields.sql} label="SQL" rows={6} language="sql" schema />
      </NewJobForm>
    </Stack>
  )
}

export const meta: MetaFunction = () => [{ title: 'New alter job · Jobs · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({
  title: 'The alter job form could not be shown',
  level: 2,
  back: { to: '/jobs/alter-jobs', label: 'Back to the alter jobs' },
})
