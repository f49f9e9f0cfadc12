import { getFormProps } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { callPublic } from '~/api/client.server'
import { Field } from '~/components/forms/field'
import { FormErrors } from '~/components/forms/form-errors'
import { SubmitButton } from '~/components/forms/submit-button'
import { AuthCard } from '~/components/layout/auth-card'
import { SetPasswordFormSchema } from '~/schemas/auth'
import { formErrorsOf } from '~/api/policies.server'
import { redirectWithToast } from '~/utils/toast.server'
import { useLazySchemaForm } from '~/components/forms/use-lazy-schema-form'

/** The cluster's names for the form's fields (password_reset_confirm). */
const CLUSTER_FIELDS: Record<string, string> = { password: 'new_password', password_confirm: 'confirm_password' }

// Fetched after hydration; the HTML constraints come from the loader (decision 032).
const loadSetPasswordFormSchema = () => import('~/schemas/auth').then((module) => module.SetPasswordFormSchema)

export async function loader() {
  return { constraint: getZodConstraint(SetPasswordFormSchema) }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: SetPasswordFormSchema })
  const hideFields = ['new_password', 'confirm_password']
  if (submission.status !== 'success') return data({ result: submission.reply({ hideFields }) }, { status: 400 })
  try {
    // Public call: no Authorization header.
    await callPublic('POST', '/password_reset_confirm/', {
      password: submission.value.new_password,
      password_confirm: submission.value.confirm_password,
      uuidb64: params.uuidb64,
      token: params.token,
    })
  } catch (error) {
    // uuidb64/token problems are not fields (CLUSTER_FIELDS leaves them out): the link is bad, a form error.
    return data({ result: submission.reply({ ...formErrorsOf(error, CLUSTER_FIELDS), hideFields }) }, { status: 400 })
  }
  return redirectWithToast('/login', { title: 'Password set', description: 'You can log in now.', type: 'success' })
}

export default function VerifyAccountRoute() {
  const { constraint } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [form, fields] = useLazySchemaForm(loadSetPasswordFormSchema, {
    constraint,
    id: 'verify-account',
    lastResult: actionData?.result,
  })
  return (
    <AuthCard
      title="Set your password"
      intro="Choose a password for your account."
      footerLink={{ to: '/login', label: 'Back to login' }}
    >
      <Form method="post" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field
          meta={fields.new_password}
          label="New password"
          type="password"
          inputProps={{ autoComplete: 'new-password' }}
        />
        <Field
          meta={fields.confirm_password}
          label="Repeat password"
          type="password"
          inputProps={{ autoComplete: 'new-password' }}
        />
        <SubmitButton w="full" mt="2">
          Set password
        </SubmitButton>
      </Form>
    </AuthCard>
  )
}

export const meta: MetaFunction = () => [{ title: 'Set password · Cluster Console' }]
