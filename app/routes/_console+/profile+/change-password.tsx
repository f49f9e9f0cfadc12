import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Box, Text } from '@chakra-ui/react'
import { Link as ChakraLink } from '~/components/ui/link'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { changePassword } from '~/api/users.server'
import { Field } from '~/components/forms/field'
import { FormCard } from '~/components/forms/form-card'
import { PageHeader } from '~/components/layout/page-header'
import { RouteErrorBoundary } from '~/components/layout/route-error'
import { ChangePasswordFormSchema } from '~/schemas/auth'
import { replyFromCluster } from '~/api/policies.server'
import { requireSession } from '~/utils/session.server'
import { useLazySchemaForm } from '~/components/forms/use-lazy-schema-form'

const PASSWORD_FIELDS = ['current_password', 'new_password', 'confirm_password']

// Fetched after hydration; the HTML constraints come from the loader (decision 032).
const loadChangePasswordFormSchema = () => import('~/schemas/auth').then((module) => module.ChangePasswordFormSchema)

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSession(request)
  return { constraint: getZodConstraint(ChangePasswordFormSchema) }
}

export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const submission = parseWithZod(await request.formData(), { schema: ChangePasswordFormSchema })
  if (submission.status !== 'success') {
    return data({ result: submission.reply({ hideFields: PASSWORD_FIELDS }), isChanged: false }, { status: 400 })
  }
  try {
    await changePassword(api, submission.value)
  } catch (error) {
    const reply = replyFromCluster(submission, error, { hideFields: PASSWORD_FIELDS })
    return data({ ...reply.data, isChanged: false }, reply.init ?? undefined)
  }
  return { result: submission.reply({ resetForm: true }), isChanged: true }
}

export default function ChangePasswordRoute() {
  const { constraint } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [form, fields] = useLazySchemaForm(loadChangePasswordFormSchema, {
    constraint,
    id: 'change-password',
    lastResult: actionData?.isChanged ? undefined : actionData?.result,
  })

  if (actionData?.isChanged) {
    return (
      <Box maxW="lg">
        <PageHeader title="Change password" />
        <Box bg="bg" p="6" rounded="lg" borderWidth="1px" role="status">
          <Text fontWeight="medium" mb="2">
            Your password has been changed.
          </Text>
          <ChakraLink asChild color="link">
            <Link to="/profile/settings">Back to settings</Link>
          </ChakraLink>
        </Box>
      </Box>
    )
  }

  return (
    <Box maxW="lg">
      <PageHeader title="Change password" />
      <FormCard form={form} submit={{ label: 'Change password' }} cancelTo="/profile/settings">
        <Field
          meta={fields.current_password}
          label="Current password"
          type="password"
          inputProps={{ autoComplete: 'current-password' }}
        />
        <Field
          meta={fields.new_password}
          label="New password"
          type="password"
          inputProps={{ autoComplete: 'new-password' }}
        />
        <Field
          meta={fields.confirm_password}
          label="Repeat new password"
          type="password"
          inputProps={{ autoComplete: 'new-password' }}
        />
      </FormCard>
    </Box>
  )
}

export const meta: MetaFunction = () => [{ title: 'Change password · Cluster Console' }]
export const ErrorBoundary = RouteErrorBoundary
