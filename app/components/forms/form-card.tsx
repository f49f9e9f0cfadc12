import { getFormProps, type FormMetadata } from '@conform-to/react'
import { Box } from '~/components/ui/box'
import { HStack } from '~/components/ui/stack'
import { Button } from '~/components/ui/button'
import { Form, Link, useNavigation } from '@remix-run/react'
import { useEffect, useRef, type FormEvent, type ReactNode, type RefObject } from 'react'
import { Denied } from '~/components/layout/denied'
import { FirstErrorContext } from './field-shell'
import { useFocusOnRefusal } from './focus-on-refusal'
import { FormErrors } from './form-errors'
import { SubmitButton } from './submit-button'
import { PendingNote } from './pending-note'

/**
 * The name of the form's first error ('' for its own errors, which sit on top; then its fields in
 * the order the reply lists them), for FirstErrorContext: that field takes focus on load.
 */
export function firstErrorOf(form: { allErrors: Record<string, string[] | undefined> }): string | undefined {
  const errorNames = Object.entries(form.allErrors)
    .filter(([, errors]) => errors?.length)
    .map(([name]) => name)
  return errorNames.includes('') ? '' : errorNames[0]
}

/**
 * The card around a create or edit form: a POST form wired to conform's `form`, its form-level
 * errors on top, the fields (`children`), then the submit button and, with `cancelTo`, Cancel.
 */
export function FormCard<Schema extends Record<string, unknown>>({
  form,
  submit,
  cancelTo,
  action,
  encType,
  deniedReason,
  checkTo,
  children,
}: {
  form: FormMetadata<Schema, string[]>
  /**
   * The submit button: its label and, for a form with several submits, its `name`/`value`;
   * `disabled` while the form waits for an answer that must come first (never in server HTML).
   */
  submit: { label: string; name?: string; value?: string; disabled?: boolean }
  cancelTo?: string
  /** Where the form posts; the page's own action when not given. */
  action?: string
  /** `multipart/form-data` for a form with a file input (it then works without scripts too). */
  encType?: 'multipart/form-data'
  /** Why the user may not save this form (`whyNot` in the loader): the submit shows disabled with it. */
  deniedReason?: string | null
  /** A change that timed out may still be applied: the link to where the user checks (decision 098). */
  checkTo?: { to: string; label: string } | null
  children: ReactNode
}) {
  const firstError = firstErrorOf(form)
  const formRef = useRef<HTMLFormElement>(null)
  const formProps = getFormProps(form)
  useFocusAfterReply(formRef, form.errorId)
  useFocusOnRefusal(form.id, form.errorId)
  return (
    <Box bg="bg" borderWidth="1px" rounded="md" p="6">
      <Form
        method="post"
        action={action}
        encType={encType}
        {...formProps}
        ref={formRef}
        onSubmit={(event: FormEvent<HTMLFormElement>) => {
          formProps.onSubmit(event)
          if (!event.defaultPrevented) formRef.current?.setAttribute('data-sent', '')
        }}
      >
        <FormErrors id={form.errorId} errors={form.errors} isFocused={firstError === ''} />
        {checkTo && form.errors?.length ? (
          <Box mt="-2" mb="4" fontSize="sm">
            <Link to={checkTo.to}>{checkTo.label}</Link>
          </Box>
        ) : null}
        <FirstErrorContext.Provider value={firstError}>{children}</FirstErrorContext.Provider>
        <HStack gap="3" mt="2">
          {deniedReason ? (
            <Denied label={submit.label} reason={deniedReason} size="md" />
          ) : (
            <SubmitButton name={submit.name} value={submit.value} disabled={submit.disabled}>
              {submit.label}
            </SubmitButton>
          )}
          {cancelTo ? (
            <Button asChild variant="outline">
              <Link to={cancelTo}>Cancel</Link>
            </Button>
          ) : null}
        </HStack>
        <PendingNote formRef={formRef} />
      </Form>
    </Box>
  )
}

/**
 * With scripts the page does not load again after a submission, so `autoFocus` does not apply: when
 * the form this card sent is still on the page once the reply is in (the action answered with
 * errors, not a redirect away), focus goes where it goes without scripts: the form-level errors,
 * else the first field marked invalid. That covers what only the server finds (a taken name);
 * conform itself focuses the first invalid field when its own check refuses the form.
 */
function useFocusAfterReply(formRef: RefObject<HTMLFormElement | null>, errorId: string) {
  const navigation = useNavigation()
  useEffect(() => {
    const element = formRef.current
    if (navigation.state !== 'idle' || !element?.hasAttribute('data-sent')) return
    element.removeAttribute('data-sent')
    // after conform has applied the reply (its own update runs in an effect of the same commit)
    const frame = requestAnimationFrame(() => {
      const formErrors = document.getElementById(errorId)
      const target = formErrors?.textContent?.trim()
        ? formErrors
        : element.querySelector<HTMLElement>('[aria-invalid="true"]')
      if (!target) return
      if (!target.hasAttribute('tabindex') && target === formErrors) target.setAttribute('tabindex', '-1')
      target.focus()
    })
    return () => cancelAnimationFrame(frame)
  }, [navigation.state, formRef, errorId])
}
