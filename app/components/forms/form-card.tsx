import { getFormProps, type FormMetadata } from '@conform-to/react'
import { Box, Button, HStack } from '@chakra-ui/react'
import { Form, Link } from '@remix-run/react'
import type { ReactNode } from 'react'
import { Denied } from '~/components/layout/denied'
import { FirstErrorContext } from './field-shell'
import { FormErrors } from './form-errors'
import { SubmitButton } from './submit-button'

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
  children,
}: {
  form: FormMetadata<Schema, string[]>
  /** The submit button: its label and, for a form with several submits, its `name`/`value`. */
  submit: { label: string; name?: string; value?: string }
  cancelTo?: string
  /** Where the form posts; the page's own action when not given. */
  action?: string
  /** `multipart/form-data` for a form with a file input (it then works without scripts too). */
  encType?: 'multipart/form-data'
  /** Why the user may not save this form (`whyNot` in the loader): the submit shows disabled with it. */
  deniedReason?: string | null
  children: ReactNode
}) {
  // the form's own errors first (they sit on top), then its fields in the order the reply lists them
  const errorNames = Object.entries(form.allErrors).filter(([, errors]) => errors?.length).map(([name]) => name)
  const firstError = errorNames.includes('') ? '' : errorNames[0]
  return (
    <Box bg="bg" borderWidth="1px" rounded="md" p="6">
      <Form method="post" action={action} encType={encType} {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={form.errors} isFocused={firstError === ''} />
        <FirstErrorContext.Provider value={firstError}>{children}</FirstErrorContext.Provider>
        <HStack gap="3" mt="2">
          {deniedReason ? (
            <Denied label={submit.label} reason={deniedReason} size="md" />
          ) : (
            <SubmitButton name={submit.name} value={submit.value}>
              {submit.label}
            </SubmitButton>
          )}
          {cancelTo ? (
            <Button asChild variant="outline">
              <Link to={cancelTo}>Cancel</Link>
            </Button>
          ) : null}
        </HStack>
      </Form>
    </Box>
  )
}
