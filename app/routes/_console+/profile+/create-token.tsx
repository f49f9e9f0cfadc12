import { getFormProps, getSelectProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Box, chakra, Stack, Text, Textarea } from '@chakra-ui/react'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { createServiceAccount, createServiceAccountToken, getServiceAccount, listServiceAccounts } from '~/api/service-accounts.server'
import { ErrorList } from '~/components/forms/error-list'
import { Field } from '~/components/forms/field'
import { FormErrors } from '~/components/forms/form-errors'
import { SubmitButton } from '~/components/forms/submit-button'
import { PageHeader } from '~/components/layout/page-header'
import { RouteErrorBoundary } from '~/components/layout/route-error'
import { CreateTokenFormSchema } from '~/schemas/token'
import { loadFromCluster, replyFromCluster } from '~/api/policies.server'

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const accounts = await loadFromCluster(() => listServiceAccounts(api))
  return { serviceAccounts: accounts.map(({ uuid, name }) => ({ uuid, name })) }
}

export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const submission = parseWithZod(await request.formData(), { schema: CreateTokenFormSchema })
  if (submission.status !== 'success') return data({ result: submission.reply(), issued: null }, { status: 400 })
  const { service_account, name, expiry } = submission.value
  try {
    const account = service_account ? await getServiceAccount(api, service_account) : await createServiceAccount(api, name!)
    const issued = await createServiceAccountToken(api, account.uuid, expiry ? new Date(`${expiry}T00:00:00Z`) : undefined)
    // Shown once: the cluster never returns it again.
    return { result: submission.reply({ resetForm: true }), issued: { ...issued, name: account.name } }
  } catch (error) {
    const reply = replyFromCluster(submission, error)
    return data({ ...reply.data, issued: null }, reply.init ?? undefined)
  }
}

export default function CreateTokenRoute() {
  const { serviceAccounts } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [form, fields] = useForm({
    id: 'create-token',
    lastResult: actionData?.issued ? undefined : actionData?.result,
    constraint: getZodConstraint(CreateTokenFormSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CreateTokenFormSchema }),
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
      <Box bg="bg" p="6" rounded="lg" borderWidth="1px">
        <Form method="post" {...getFormProps(form)}>
          <FormErrors id={form.errorId} errors={form.errors} />
          <Stack gap="0">
            <Box mb="4">
              <chakra.label htmlFor={fields.service_account.id} display="block" fontWeight="medium" fontSize="sm" mb="1">
                Service account
              </chakra.label>
              <chakra.select
                {...getSelectProps(fields.service_account)}
                key={fields.service_account.key}
                w="full"
                h="10"
                px="3"
                borderWidth="1px"
                borderColor="border"
                rounded="md"
                bg="bg"
              >
                <option value="">New service account…</option>
                {serviceAccounts.map((account) => (
                  <option key={account.uuid} value={account.uuid}>
                    {account.name}
                  </option>
                ))}
              </chakra.select>
              <ErrorList id={fields.service_account.errorId} errors={fields.service_account.errors} />
            </Box>
            <Field meta={fields.name} label="New service account name" help="Used when no existing account is chosen." />
            <Field meta={fields.expiry} label="Expires on (optional)" type="date" />
          </Stack>
          <SubmitButton>Create token</SubmitButton>
        </Form>
      </Box>
    </Box>
  )
}

export const meta: MetaFunction = () => [{ title: 'Create token · Cluster Console' }]
export const ErrorBoundary = RouteErrorBoundary
