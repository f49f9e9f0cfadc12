import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Box, Text } from '~/components/ui/box'
import { Link as ChakraLink } from '~/components/ui/link'
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { changePassword, type AuthToken } from '~/api/users.server'
import { Field } from '~/components/forms/field'
import { FormCard } from '~/components/forms/form-card'
import { PageHeader } from '~/components/layout/page-header'
import { RouteErrorBoundary } from '~/components/layout/route-error'
import { ChangePasswordFormSchema } from '~/schemas/auth'
import { replyFromCluster } from '~/api/policies.server'
import { commitSession, requireSession } from '~/utils/session.server'
import { useLazySchemaForm } from '~/components/forms/use-lazy-schema-form'

const PASSWORD_FIELDS = ['current_password', 'new_password', 'confirm_password']

// Fetched after hydration; the HTML constraints come from the loader (decision 032).
const loadChangePasswordFormSchema = () => import('~/schemas/auth').then((module) => module.ChangePasswordFormSchema)

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSession(request)
  // `?changed=1`: where a successful change lands (below)
  const isChanged = new URL(request.url).searchParams.get('changed') === '1'
  return { constraint: getZodConstraint(ChangePasswordFormSchema), isChanged }
}

export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const submission = parseWithZod(await request.formData(), { schema: ChangePasswordFormSchema })
  if (submission.status !== 'success') {
    return data({ result: submission.reply({ hideFields: PASSWORD_FIELDS }) }, { status: 400 })
  }
  let token: AuthToken | null
  try {
    token = await changePassword(api, submission.value)
  } catch (error) {
    const reply = replyFromCluster(submission, error, { hideFields: PASSWORD_FIELDS })
    return data(reply.data, reply.init ?? undefined)
  }
  // A new password ends the user's other sessions (the cluster's tokens made with the old one); this
  // session goes on with the token the cluster answered (a cluster that answers none keeps the old).
  // A redirect, so that the next page is read with the new cookie: without scripts, the loaders
  // after an action get the request's old cookie, whose token the change ended.
  const session = await requireSession(request)
  const headers = token
    ? {
        'Set-Cookie': await commitSession(request, {
          token: token.access_token,
          expiresIn: token.expires_in,
          userId: session.userId,
          orgId: session.orgId,
        }),
      }
    : undefined
  return redirect('/profile/change-password?changed=1', { headers })
}

export default function ChangePasswordRoute() {
  const { constraint, isChanged } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [form, fields] = useLazySchemaForm(loadChangePasswordFormSchema, {
    constraint,
    id: 'change-password',
    lastResult: actionData?.result,
  })

  if (isChanged) {
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
