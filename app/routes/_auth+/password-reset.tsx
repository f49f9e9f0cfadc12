import { getFormProps } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Text } from '~/components/ui/box'
import { data, type ActionFunctionArgs, type HeadersFunction, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { callPublic } from '~/api/client.server'
import { Field } from '~/components/forms/field'
import { FormErrors } from '~/components/forms/form-errors'
import { SubmitButton } from '~/components/forms/submit-button'
import { AuthCard } from '~/components/layout/auth-card'
import { PasswordResetFormSchema } from '~/schemas/auth'
import { formErrorsOf } from '~/api/policies.server'
import { useLazySchemaForm } from '~/components/forms/use-lazy-schema-form'
import { resetThrottle, tryAgainIn } from './__throttle.server'

// Fetched after hydration; the HTML constraints come from the loader (decision 032).
const loadPasswordResetFormSchema = () => import('~/schemas/auth').then((module) => module.PasswordResetFormSchema)

/** A throttled answer's Retry-After reaches the page's own answer too (Remix keeps an action's headers only for its data). */
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get('Retry-After')
  return new Headers(retryAfter ? { 'Retry-After': retryAfter } : undefined)
}

export async function loader() {
  return { constraint: getZodConstraint(PasswordResetFormSchema) }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: PasswordResetFormSchema })
  if (submission.status !== 'success') return data({ result: submission.reply(), sent: false }, { status: 400 })
  // So recovery emails cannot be flooded: per email (known or not) and per address (decision 094).
  const wait = await resetThrottle.attempt(submission.value.email, context?.clientAddress)
  if (wait) {
    return data(
      {
        result: submission.reply({ formErrors: [`Too many recovery emails asked for. ${tryAgainIn(wait)}`] }),
        sent: false,
      },
      { status: 429, headers: { 'Retry-After': String(wait) } },
    )
  }
  try {
    // Public call: no Authorization header.
    await callPublic('POST', '/reset_password', { email: submission.value.email })
  } catch (error) {
    return data({ result: submission.reply(formErrorsOf(error)), sent: false }, { status: 400 })
  }
  return { result: submission.reply(), sent: true as const }
}

const BACK_TO_LOGIN = { to: '/login', label: 'Back to login' }

export default function PasswordResetRoute() {
  const { constraint } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [form, fields] = useLazySchemaForm(loadPasswordResetFormSchema, {
    constraint,
    id: 'password-reset',
    lastResult: actionData?.sent ? undefined : actionData?.result,
  })

  if (actionData?.sent) {
    return (
      <AuthCard title="Recovery email sent" footerLink={BACK_TO_LOGIN}>
        <Text role="status">
          If an account exists for that address, a recovery email is on its way. Follow the link in it to set a new
          password.
        </Text>
      </AuthCard>
    )
  }

  return (
    <AuthCard
      title="Forgot password"
      intro="Enter your email and we will send you a link to reset your password."
      footerLink={BACK_TO_LOGIN}
    >
      <Form method="post" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field meta={fields.email} label="Email" type="email" inputProps={{ autoComplete: 'email', autoFocus: true }} />
        <SubmitButton w="full" mt="2">
          Send recovery email
        </SubmitButton>
      </Form>
    </AuthCard>
  )
}

export const meta: MetaFunction = () => [{ title: 'Forgot password · Cluster Console' }]
