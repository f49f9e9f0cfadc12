import { useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Stack } from '@chakra-ui/react'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData, useRouteError } from '@remix-run/react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { requireApi } from '~/api/client.server'
import { Field, TextareaField } from '~/components/forms/field'
import { FormCard } from '~/components/forms/form-card'
import { PageHeader } from '~/components/layout/page-header'
import { ErrorPanel } from '~/components/layout/route-error'
import { NEW_PROJECT, TableFormSchema } from '~/schemas/table'
import { errorMessage } from '~/utils/error-message'
import { loadFromCluster } from '~/api/policies.server'
import type { RouteHandle } from '~/utils/handle'
import { ProjectSelect } from './__project-select'
import { createTableAction, loadTableEditor } from './__table-editor.server'

export const handle: RouteHandle = { docsTopic: 'table' }

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  return loadFromCluster(() => loadTableEditor(api, new URL(request.url)))
}

export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  return createTableAction(api, await request.formData())
}

export default function NewTableRoute() {
  const loaderData = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const isHydrated = useHydrated()
  const [form, fields] = useForm({
    id: 'new-table',
    lastResult: actionData?.result,
    constraint: getZodConstraint(TableFormSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    defaultValue: { project: loaderData.project },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TableFormSchema }),
  })
  // Without scripts the name field is always there; with them it shows once "New project…" is picked.
  const isNewProjectShown = !isHydrated || fields.project.value === NEW_PROJECT

  return (
    <Stack gap="4" maxW="2xl">
      <PageHeader title="New table" description="A table lives in a project. Settings you leave empty take the cluster's defaults." mb="0" />
      <FormCard form={form} submit={{ label: 'Create table' }} cancelTo="/data/tables">
        <ProjectSelect meta={fields.project} projects={loaderData.projects} />
        {isNewProjectShown ? (
          <Field
            meta={fields.newProjectName}
            label="New project name"
            help={isHydrated ? undefined : 'Only used when “New project…” is selected above.'}
          />
        ) : null}
        <Field meta={fields.name} label="Table name" inputProps={{ autoComplete: 'off' }} />
        <TextareaField meta={fields.description} label="Description" rows={2} />
        <Field
          meta={fields.maxAgeDays}
          label="Max age (days)"
          help="Data older than this is removed; 0 keeps it forever."
          inputProps={{ inputMode: 'numeric' }}
        />
        <TextareaField meta={fields.sortKeys} label="Sort keys (JSON)" rows={2} />
      </FormCard>
    </Stack>
  )
}

export const meta: MetaFunction = () => [{ title: 'New table · Cluster Console' }]

export function ErrorBoundary() {
  const error = useRouteError()
  return <ErrorPanel title="The table could not be created" message={errorMessage(error)} />
}
