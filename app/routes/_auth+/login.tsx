import { Text } from '~/components/ui/box'
import { getFormProps } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Form, useActionData, useLoaderData, useSearchParams } from '@remix-run/react'
import { z } from 'zod'
import { callPublic } from '~/api/client.server'
import { ClusterError } from '~/api/errors.server'
import { Field } from '~/components/forms/field'
import { FormErrors } from '~/components/forms/form-errors'
import { SubmitButton } from '~/components/forms/submit-button'
import { AuthCard } from '~/components/layout/auth-card'
import { LoginFormSchema } from '~/schemas/auth'
import { commitSession, getSession, safeRedirect } from '~/utils/session.server'
import { useLazySchemaForm } from '~/components/forms/use-lazy-schema-form'
import { evenOut, loginThrottle, tryAgainIn } from './__throttle.server'

// The browser fetches the schema after hydration; the loader gives the form its HTML constraints (decision 032).
const loadLoginFormSchema = () => import('~/schemas/auth').then((module) => module.LoginFormSchema)

/** The part of the login answer the console keeps (spec section 3). */
const LoginResponseSchema = z.object({
  uuid: z.string(),
  auth_token: z.object({ access_token: z.string(), expires_in: z.coerce.number().positive() }),
  orgs: z.array(z.object({ uuid: z.string() })).min(1),
})

/** A throttled answer's Retry-After reaches the page's own answer too (Remix keeps an action's headers only for its data). */
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get('Retry-After')
  return new Headers(retryAfter ? { 'Retry-After': retryAfter } : undefined)
}

export async function loader({ request }: LoaderFunctionArgs) {
  // Already signed in: go where the login would have gone.
  if (await getSession(request)) {
    throw redirect(safeRedirect(new URL(request.url).searchParams.get('prevUrl')))
  }
  return { constraint: getZodConstraint(LoginFormSchema) }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const startedAt = performance.now()
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: LoginFormSchema })
  if (submission.status !== 'success') {
    return data({ result: submission.reply({ hideFields: ['password'] }) }, { status: 400 })
  }
  const { email, password, prevUrl } = submission.value

  // Throttled per account and per address, known account or not (decision 094): not asked of the cluster.
  const attempt = await loginThrottle.attempt(email, context?.clientAddress)
  if (!attempt.isAllowed) {
    return data(
      {
        result: submission.reply({
          formErrors: [`Too many sign-in attempts. ${tryAgainIn(attempt.wait)}`],
          hideFields: ['password'],
        }),
      },
      { status: 429, headers: { 'Retry-After': String(attempt.wait) } },
    )
  }

  let login: z.infer<typeof LoginResponseSchema>
  try {
    // Public call: no Authorization header.
    const body = await callPublic<unknown>('POST', '/login', { username: email, password })
    const parsed = LoginResponseSchema.safeParse(body)
    if (!parsed.success) throw new ClusterError({ status: 502, body })
    login = parsed.data
  } catch (error) {
    if (!(error instanceof ClusterError)) {
      await attempt.unanswered()
      throw error
    }
    const isRefusal = error.status === 401 || error.status === 400 || error.status === 403
    await (isRefusal ? attempt.failed() : attempt.unanswered())
    // A refusal takes as long for an account that exists as for one that does not.
    await evenOut(startedAt)
    // The login page shows every failure in the form: 401 is the server's detail (spec section 8).
    const { fieldErrors, formErrors } = error.status === 400 ? error.mapped : { fieldErrors: {}, formErrors: [] }
    if (fieldErrors.username) fieldErrors.email = [...(fieldErrors.email ?? []), ...fieldErrors.username]
    delete fieldErrors.username
    const hasMapped = formErrors.length > 0 || Object.keys(fieldErrors).length > 0
    return data(
      {
        result: submission.reply({
          formErrors: hasMapped ? formErrors : [error.message],
          fieldErrors,
          hideFields: ['password'],
        }),
      },
      { status: isRefusal ? error.status : 400 },
    )
  }
  await attempt.succeeded()

  const cookie = await commitSession(request, {
    token: login.auth_token.access_token,
    userId: login.uuid,
    expiresIn: login.auth_token.expires_in,
    orgId: login.orgs[0]!.uuid,
  })
  return redirect(safeRedirect(prevUrl), { headers: { 'Set-Cookie': cookie } })
}

/** Log out's `?notice=` when it could not end the session on other replicas (routes/logout.tsx, decision 080). */
const LOGGED_OUT_HERE_ONLY = 'here-only'

export default function LoginRoute() {
  const { constraint } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [searchParams] = useSearchParams()
  const [form, fields] = useLazySchemaForm(loadLoginFormSchema, {
    id: 'login',
    constraint,
    lastResult: actionData?.result,
    defaultValue: { prevUrl: searchParams.get('prevUrl') ?? '' },
  })

  return (
    <AuthCard title="Log in" footerLink={{ to: '/password-reset', label: 'Forgot password?' }}>
      <Form method="post" {...getFormProps(form)}>
        {searchParams.get('notice') === LOGGED_OUT_HERE_ONLY ? (
          <Text role="status" mb="4" fontSize="sm">
            You are logged out in this browser. If this console runs as several replicas, the others still accept a copy
            of that session until it expires: this cluster has no way to end a session, and the console&rsquo;s store
            (Settings, query history) is off or could not be written, so the Log out could not be shared.
          </Text>
        ) : null}
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name={fields.prevUrl.name} value={searchParams.get('prevUrl') ?? ''} />
        <Field
          meta={fields.email}
          label="Email"
          type="email"
          inputProps={{ autoComplete: 'username', autoFocus: true }}
        />
        <Field
          meta={fields.password}
          label="Password"
          type="password"
          inputProps={{ autoComplete: 'current-password' }}
        />
        <SubmitButton w="full" mt="2">
          Log in
        </SubmitButton>
      </Form>
    </AuthCard>
  )
}

export const meta: MetaFunction = () => [{ title: 'Log in · Cluster Console' }]
