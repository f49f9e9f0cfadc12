import type { FieldMetadata } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Box, chakra, Text } from '@chakra-ui/react'
import { Link as ChakraLink } from '~/components/ui/link'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
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
import { useSchemaForm } from '~/components/forms/use-schema-form'

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const user = await loadFromCluster(() => getCurrentUser(api))
  return {
    email: user.email,
    timezone: await getTimezone(request),
    localZone: await getLocalZone(request),
    zones: zoneNames(),
    theme: await getColorMode(request),
  }
}

/** Every IANA zone this server knows (about 420 names), UTC apart: it is its own choice. */
function zoneNames(): string[] {
  return Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')
}

export async function action({ request }: ActionFunctionArgs) {
  await requireSession(request)
  const submission = parseWithZod(await request.formData(), { schema: ProfileSettingsFormSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const headers = new Headers({ 'Set-Cookie': await commitTimezone(request, submission.value.timezone) })
  if (submission.value.theme) headers.append('Set-Cookie', await commitColorMode(request, submission.value.theme))
  return redirectWithToast('/profile/settings', { title: 'Settings saved', type: 'success' }, { headers })
}

export default function ProfileSettingsRoute() {
  const { email, timezone, localZone, zones, theme } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [form, fields] = useSchemaForm(ProfileSettingsFormSchema, {
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
              : 'Local is your browser’s zone; until a page with scripts has told the console which one, times show in UTC. Pick a zone to show times in it without scripts.'
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
