import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { chakra } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { Textarea } from '~/components/ui/textarea'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import {
  createServiceAccount,
  createServiceAccountToken,
  getServiceAccount,
  listServiceAccounts,
} from '~/api/service-accounts.server'
import { Field } from '~/components/forms/field'
import { FormCard } from '~/components/forms/form-card'
import { SelectField } from '~/components/forms/select-field'
import { PageHeader } from '~/components/layout/page-header'
import { RouteErrorBoundary } from '~/components/layout/route-error'
import { CreateTokenFormSchema } from '~/schemas/token'
import { loadFromCluster, replyFromCluster } from '~/api/policies.server'
import { useLazySchemaForm } from '~/components/forms/use-lazy-schema-form'

// Fetched after hydration; the HTML constraints come from the loader (decision 032).
const loadCreateTokenFormSchema = () => import('~/schemas/token').then((module) => module.CreateTokenFormSchema)

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const accounts = await loadFromCluster(() => listServiceAccounts(api))
  return {
    serviceAccounts: accounts.map(({ uuid, name }) => ({ uuid, name })),
    constraint: getZodConstraint(CreateTokenFormSchema),
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const submission = parseWithZod(await request.formData(), { schema: CreateTokenFormSchema })
  if (submission.status !== 'success') return data({ result: submission.reply(), issued: null }, { status: 400 })
  const { service_account, name, expiry } = submission.value
  try {
    const account = service_account
      ? await getServiceAccount(api, service_account)
      : await createServiceAccount(api, name!)
    const issued = await createServiceAccountToken(
      api,
      account.uuid,
      expiry ? new Date(`${expiry}T00:00:00Z`) : undefined,
    )
    // Shown once: the cluster never returns it again.
    return { result: submission.reply({ resetForm: true }), issued: { ...issued, name: account.name } }
  } catch (error) {
    const reply = replyFromCluster(submission, error)
    return data({ ...reply.data, issued: null }, reply.init ?? undefined)
  }
}

export default function CreateTokenRoute() {
  const { serviceAccounts, constraint } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [form, fields] = useLazySchemaForm(loadCreateTokenFormSchema, {
    constraint,
    id: 'create-token',
    lastResult: actionData?.issued ? undefined : actionData?.result,
  })
  const issued = actionData?.issued

  return (
    <Box maxW="xl">
      <PageHeader
        title="Create token"
        description="API tokens belong to service accounts. A token is shown once: copy it before leaving this page."
      />
      {issued ? (
        <Box bg="green.subtle" borderWidth="1px" borderColor="green.muted" rounded="lg" p="6" mb="6" role="status">
          <Text fontWeight="medium" mb="2">
            Token created for {issued.name}
            {issued.expiry ? `, valid until ${issued.expiry.slice(0, 10)}` : ''}.
          </Text>
          <chakra.label htmlFor="issued-token" fontSize="sm" display="block" mb="1">
            Token
          </chakra.label>
          <Textarea id="issued-token" readOnly rows={4} fontFamily="mono" fontSize="xs" value={issued.token} />
        </Box>
      ) : null}
      <FormCard form={form} submit={{ label: 'Create token' }}>
        <SelectField
          meta={fields.service_account}
          label="Service account"
          placeholder="New service account…"
          options={serviceAccounts.map((account) => ({ value: account.uuid, label: account.name }))}
        />
        <Field meta={fields.name} label="New service account name" help="Used when no existing account is chosen." />
        <Field meta={fields.expiry} label="Expires on (optional)" type="date" />
      </FormCard>
    </Box>
  )
}

export const meta: MetaFunction = () => [{ title: 'Create token · Cluster Console' }]
export const ErrorBoundary = RouteErrorBoundary
