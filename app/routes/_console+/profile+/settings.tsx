import type { FieldMetadata } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { chakra } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { Link as ChakraLink } from '~/components/ui/link'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { isClusterError } from '~/api/errors.server'
import { consoleStoreProject } from '~/api/console-store.server'
import { ensureStoreNow, SavedQueriesUnavailable, STORE_TABLES } from '~/api/saved-queries.server'
import { hasStoreAccount, storeClient } from '~/api/store-account.server'
import { listTables } from '~/api/tables.server'
import { Button } from '~/components/ui/button'
import { CONSOLE_PROJECT, HISTORY_TABLE, REVOKED_TABLE, SAVED_TABLE } from '~/utils/console-store'
import { getCurrentUser } from '~/api/users.server'
import { ErrorList } from '~/components/forms/error-list'
import { FormCard } from '~/components/forms/form-card'
import { PageHeader } from '~/components/layout/page-header'
import { RouteErrorBoundary } from '~/components/layout/route-error'
import { ProfileSettingsFormSchema } from '~/schemas/auth'
import { loadFromCluster } from '~/api/policies.server'
import { COLOR_MODE_LABELS, COLOR_MODES } from '~/utils/color-mode'
import {
  commitColorMode,
  commitTimezone,
  getColorMode,
  getLocalZone,
  getTimezone,
  requireSession,
} from '~/utils/session.server'
import { SelectField } from '~/components/forms/select-field'
import { redirectWithToast } from '~/utils/toast.server'
import { useLazySchemaForm } from '~/components/forms/use-lazy-schema-form'

// Fetched after hydration; the HTML constraints come from the loader (decision 032).
const loadProfileSettingsFormSchema = () => import('~/schemas/auth').then((module) => module.ProfileSettingsFormSchema)

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const user = await loadFromCluster(() => getCurrentUser(api))
  return {
    email: user.email,
    timezone: await getTimezone(request),
    localZone: await getLocalZone(request),
    zones: zoneNames(),
    theme: await getColorMode(request),
    history: await historyStore(api),
    constraint: getZodConstraint(ProfileSettingsFormSchema),
  }
}

/**
 * Where the query history and saved queries are kept (issue 37): the console's own project, which
 * exists once someone saved a query or turned the history on. `incomplete` when the project is there
 * without all its tables (made by another tool, or a table deleted): nothing is recorded until Turn on
 * makes what is missing. `unknown` when the projects could not be read (the page still shows the rest).
 */
async function historyStore(api: Awaited<ReturnType<typeof requireApi>>): Promise<{
  state: 'on' | 'off' | 'incomplete' | 'unknown'
  projectId: string | null
  missing: string[]
  /** The console reads and writes the store with its own account (decision 105). */
  isAccount: boolean
}> {
  // as the console uses it: through its store account when it has one (decision 105)
  const store = storeClient(api)
  const isAccount = hasStoreAccount()
  try {
    const project = await consoleStoreProject(store)
    if (!project) return { state: 'off', projectId: null, missing: [], isAccount }
    const present = new Set((await listTables(store, project.uuid)).map((table) => table.name))
    const missing = STORE_TABLES.filter((name) => !present.has(name))
    return { state: missing.length ? 'incomplete' : 'on', projectId: project.uuid, missing, isAccount }
  } catch (error) {
    if (!isClusterError(error)) throw error
    // an account without its role yet sees no store: Turn on gives it (an org admin's)
    if (isAccount && error.status === 403) return { state: 'off', projectId: null, missing: [], isAccount }
    return { state: 'unknown', projectId: null, missing: [], isAccount }
  }
}

/** Every IANA zone this server knows (about 420 names), UTC apart: it is its own choice. */
function zoneNames(): string[] {
  return Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')
}

export async function action({ request }: ActionFunctionArgs) {
  await requireSession(request)
  const formData = await request.formData()
  if (formData.get('intent') === 'history-on') return turnHistoryOn(request)
  const submission = parseWithZod(formData, { schema: ProfileSettingsFormSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const headers = new Headers({ 'Set-Cookie': await commitTimezone(request, submission.value.timezone) })
  if (submission.value.theme) headers.append('Set-Cookie', await commitColorMode(request, submission.value.theme))
  return redirectWithToast('/profile/settings', { title: 'Settings saved', type: 'success' }, { headers })
}

/** Creates the store the history and saved queries are kept in (the page said what it creates). */
async function turnHistoryOn(request: Request) {
  const api = await requireApi(request)
  try {
    await ensureStoreNow(api)
  } catch (error) {
    if (error instanceof SavedQueriesUnavailable || isClusterError(error))
      return data(
        { result: undefined, historyError: error.message },
        { status: error instanceof SavedQueriesUnavailable ? 403 : 400 },
      )
    throw error
  }
  return redirectWithToast(
    '/profile/settings',
    { title: 'Query history is on', description: `Runs are kept in the ${CONSOLE_PROJECT} project.`, type: 'success' },
    {},
  )
}

export default function ProfileSettingsRoute() {
  const { email, timezone, localZone, zones, theme, history, constraint } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [form, fields] = useLazySchemaForm(loadProfileSettingsFormSchema, {
    constraint,
    id: 'profile-settings',
    lastResult: actionData?.result,
    defaultValue: { timezone, theme },
  })
  return (
    <Box maxW="lg">
      <PageHeader title="Settings" description="Your personal preferences." />
      <FormCard form={form} submit={{ label: 'Save' }}>
        <Box mb="6">
          <Text fontSize="sm" color="fg.muted">
            Email
          </Text>
          <Text fontWeight="medium">{email}</Text>
        </Box>
        <SelectField
          meta={fields.timezone}
          label="Timezone"
          help={
            localZone
              ? `Local is your browser’s zone (${localZone}, as it last said). Pick a zone to show times in it on any device.`
              : 'Local is your browser’s zone; until a page with scripts has told the console which one, ' +
                'times show in UTC. Pick a zone to show times in it without scripts.'
          }
          options={[
            {
              value: 'Local',
              label: localZone ? `Local (your browser’s: ${localZone})` : 'Local (your browser’s zone)',
            },
            { value: 'UTC', label: 'UTC' },
            ...zones.map((zone) => ({ value: zone, label: zone.replace(/_/g, ' ') })),
          ]}
        />
        <RadioGroup
          legend="Theme"
          meta={fields.theme}
          current={theme}
          options={COLOR_MODES.map((value) => ({
            value,
            label: value === 'system' ? 'System (follows your device)' : COLOR_MODE_LABELS[value],
          }))}
          mt="4"
        />
      </FormCard>
      <ChakraLink asChild color="link" fontSize="sm" mt="4" display="inline-block">
        <Link to="/profile/change-password">Change password</Link>
      </ChakraLink>
      <HistorySection
        history={history}
        error={actionData && 'historyError' in actionData ? actionData.historyError : undefined}
      />
    </Box>
  )
}

/**
 * The query history's switch and where it lives (issue 37): nothing is written to the cluster until
 * an operator turns it on here or saves a query, and the page says before that what it creates,
 * and after it where the store is and how to remove it.
 */
function HistorySection({
  history,
  error,
}: {
  history: {
    state: 'on' | 'off' | 'incomplete' | 'unknown'
    projectId: string | null
    missing: string[]
    isAccount: boolean
  }
  error: string | undefined
}) {
  const tables = `${SAVED_TABLE}, ${HISTORY_TABLE} and ${REVOKED_TABLE}`
  return (
    <Box as="section" aria-labelledby="history-heading" mt="8" borderWidth="1px" rounded="lg" p="5">
      <Text as="h2" id="history-heading" fontWeight="semibold" mb="2">
        Query history and saved queries
      </Text>
      {error ? (
        <Text role="alert" color="red.fg" mb="3">
          {error}
        </Text>
      ) : null}
      {history.state === 'on' ? (
        <>
          <Text mb="2">
            On. Runs and saved queries are kept in this organization&rsquo;s{' '}
            <ChakraLink asChild color="link">
              <Link to={`/data/tables?q=${CONSOLE_PROJECT}`}>{CONSOLE_PROJECT}</Link>
            </ChakraLink>{' '}
            project (tables {tables}), for every user of it. Log out is kept there too, so that every replica of the
            console refuses a logged-out session within 5 seconds on a cluster that cannot end one itself.
          </Text>
          {history.isAccount ? (
            <Text mb="2">
              The console reads and writes them with its own service account: you see your own runs, your saved queries
              and those shared with the organization, and no user needs rights on the {CONSOLE_PROJECT} project.
            </Text>
          ) : null}
          <Text fontSize="sm" color="fg.muted">
            To remove them, delete the {CONSOLE_PROJECT} project in Data: every saved query and run of the organization
            goes with it, and the history is off until it is turned on again.
          </Text>
        </>
      ) : history.state === 'off' || history.state === 'incomplete' ? (
        <Form method="post">
          <Text mb="3">
            {history.state === 'incomplete'
              ? `Off: the ${CONSOLE_PROJECT} project is there without its ${history.missing.join(', ')} ` +
                `table${history.missing.length > 1 ? 's' : ''}, so nothing you run is recorded. Turning ` +
                `it on creates what is missing (the tables ${tables} and their transforms)`
              : `Off: nothing you run is recorded. Turning it on creates the ${CONSOLE_PROJECT} project ` +
                `in this organization, with the tables ${tables} and their transforms`}
            ; History then lists your runs of the last 90 days. Saving a query turns it on too. While it is off, a Log
            out on a cluster that cannot end a session itself ends it on this replica of the console only.
          </Text>
          <Button type="submit" name="intent" value="history-on" variant="outline">
            Turn on query history
          </Button>
        </Form>
      ) : (
        <Text color="fg.muted">Whether the history is on could not be read from the cluster just now.</Text>
      )}
    </Box>
  )
}

/** A labelled group of radios for one field, checked at the submitted value or else `current`; its errors below. */
function RadioGroup({
  legend,
  meta,
  current,
  options,
  mt,
}: {
  legend: string
  meta: FieldMetadata<string | undefined, Record<string, unknown>, string[]>
  current: string
  options: { value: string; label: string }[]
  mt: string
}) {
  return (
    <chakra.fieldset border="none" p="0" mx="0" mt={mt} mb="2" aria-describedby={meta.errorId}>
      <chakra.legend fontWeight="medium" fontSize="sm" mb="2">
        {legend}
      </chakra.legend>
      {options.map((option) => (
        <chakra.label key={option.value} display="flex" alignItems="center" gap="2" mb="1" cursor="pointer">
          {/* The form card focuses the first [aria-invalid] control after a refused submit: the group has none. */}
          {/* eslint-disable-next-line jsx-a11y/role-supports-aria-props */}
          <input
            type="radio"
            name={meta.name}
            value={option.value}
            aria-invalid={meta.errors?.length ? true : undefined}
            defaultChecked={(meta.initialValue ?? current) === option.value}
          />
          {option.label}
        </chakra.label>
      ))}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </chakra.fieldset>
  )
}

export const meta: MetaFunction = () => [{ title: 'Settings · Cluster Console' }]
export const ErrorBoundary = RouteErrorBoundary
