import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Box, Text } from '~/components/ui/box'
import { HStack } from '~/components/ui/stack'
import { Button } from '~/components/ui/button'
import { Form, Link, useNavigation } from '@remix-run/react'
import type { ReactNode } from 'react'
import { Denied } from '~/components/layout/denied'
import { FocusHeading } from '~/components/layout/focus-heading'
import { FORCE_CONSTRAINT, FORCE_MESSAGE } from '~/schemas/confirm-values'
import { useHrefWith } from '~/utils/use-href-with'
import { Field } from './field'
import { SubmitButton } from './submit-button'
import { useLazySchemaForm } from './use-lazy-schema-form'

// The FORCE field's schema (and zod with it) loads after hydration (decisions 032, 075).
const loadForceSchema = () => import('~/schemas/confirm').then((module) => module.ForceConfirmSchema)

type ConfirmPanelProps = {
  /** Names the panel's form and heading (`<id>-heading`): unique on the page. */
  id: string
  /** The question: "Delete table web_logs?". */
  title: ReactNode
  /** What the step does and what is lost. */
  children: ReactNode
  /** Sent as the hidden `intent`: what the action does. */
  intent: string
  /** Hidden fields the action needs besides `intent`: the item's id, a project hint. */
  hiddenFields?: Record<string, string>
  /** The confirm button's label: "Delete table". */
  confirmLabel: string
  /** The URL parameter that opened this step (`?delete=<id>`); Cancel goes to the same URL without it. */
  stepParam?: string
  /** Ask for FORCE typed into a `confirm` field; `lastResult` is the action's reply (its field error). */
  force?: { lastResult?: SubmissionResult<string[]> }
  /** Where the form posts; the page's own action when not given. */
  action?: string
  /** 3 under a section's h2 (the components kit). */
  level?: 2 | 3
  /** False where several panels show at once, so none takes focus. */
  isFocusedOnShow?: boolean
  /** `danger` (red) loses something; `warning` (orange) changes something the user should look at first. */
  tone?: 'danger' | 'warning'
  /** Where Cancel goes when the step is not a URL parameter (the same URL without `stepParam` by default). */
  cancelTo?: string
  /** Why the user may not take this step (`whyNot` in the loader): the reason shows instead of the form. */
  deniedReason?: string | null
}

/**
 * A destructive step's confirmation, rendered by the server and the same without scripts: the
 * question, what is lost, an optional typed FORCE, then a POST form (hidden `intent` and ids) with the
 * confirm button and Cancel. Opened by a URL parameter (`?delete=<id>`) on the page that shows the item.
 */
export function ConfirmPanel({
  id,
  title,
  children,
  intent,
  hiddenFields = {},
  confirmLabel,
  stepParam = 'delete',
  force,
  action,
  level = 2,
  isFocusedOnShow = true,
  tone = 'danger',
  cancelTo,
  deniedReason,
}: ConfirmPanelProps) {
  const palette = tone === 'danger' ? 'red' : 'orange'
  const hrefWith = useHrefWith()
  const navigation = useNavigation()
  const headingId = `${id}-heading`
  const cancel = (
    <Button asChild variant="outline" size="sm" bg="bg">
      <Link to={cancelTo ?? hrefWith({ [stepParam]: null })}>Cancel</Link>
    </Button>
  )
  const actions = (
    <>
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(hiddenFields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {/* With FORCE, the field's own space below separates them. */}
      <HStack gap="3" mt={force ? '0' : '3'}>
        <SubmitButton
          colorPalette={palette}
          size="sm"
          isPending={navigation.state === 'submitting' && navigation.formData?.get('intent') === intent}
        >
          {confirmLabel}
        </SubmitButton>
        {cancel}
      </HStack>
    </>
  )
  return (
    <Box
      as="section"
      aria-labelledby={headingId}
      aria-describedby={`${id}-text`}
      bg={`${palette}.subtle`}
      borderWidth="1px"
      borderColor={`${palette}.muted`}
      rounded="md"
      p="4"
    >
      <FocusHeading id={headingId} level={level} isFocusedOnShow={isFocusedOnShow}>
        {title}
      </FocusHeading>
      <Text id={`${id}-text`}>{children}</Text>
      {deniedReason ? (
        // Opened by its URL although the page offers no link to it: say why, and offer the way back.
        <HStack gap="3" mt="3">
          <Denied label={confirmLabel} reason={deniedReason} />
          {cancel}
        </HStack>
      ) : force ? (
        <ForceForm id={id} action={action} lastResult={force.lastResult}>
          {actions}
        </ForceForm>
      ) : (
        <Form method="post" action={action}>
          {actions}
        </Form>
      )}
    </Box>
  )
}

/**
 * The form with a FORCE field, checked in the browser (with scripts) by the schema the action uses,
 * once it has loaded; until then the action checks it.
 */
function ForceForm({
  id,
  action,
  lastResult,
  children,
}: {
  id: string
  action?: string
  lastResult?: SubmissionResult<string[]>
  children: ReactNode
}) {
  const [form, fields] = useLazySchemaForm(loadForceSchema, {
    id,
    lastResult,
    constraint: FORCE_CONSTRAINT,
    shouldValidate: 'onSubmit',
  })
  return (
    <Form method="post" action={action} {...getFormProps(form)}>
      <Box mt="3">
        <Field
          meta={fields.confirm}
          label={FORCE_MESSAGE}
          inputProps={{ autoComplete: 'off', maxW: 'xs', bg: 'bg', size: 'sm' }}
        />
      </Box>
      {children}
    </Form>
  )
}
