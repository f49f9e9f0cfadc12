import type { SubmissionResult } from '@conform-to/react'
import { originalOf } from '~/utils/edit-conflict'
import { SimpleGrid } from '@chakra-ui/react'
import { Text } from '~/components/ui/box'
import { CheckboxField } from '~/components/forms/checkbox-field'
import { Field } from '~/components/forms/field'
import { FormCard } from '~/components/forms/form-card'
import { SelectField } from '~/components/forms/select-field'
import { useLazySchemaForm, type FormConstraint } from '~/components/forms/use-lazy-schema-form'
import { withCurrent } from '~/schemas/lossless'

// The schema comes after hydration (decision 077): zod stays out of the source pages' first load.
const loadSourceSchemas = () => import('~/schemas/source')

/** The auto batch form: the queue (with its address), filter, credentials, dry run and limits. */
export function AutoBatchEditor({
  table,
  tableLabel,
  credentials,
  defaultValue,
  constraint,
  lastResult,
  submitLabel,
  cancelTo,
  deniedReason,
}: {
  table: string
  tableLabel: string
  credentials: { value: string; label: string }[]
  defaultValue: Record<string, unknown>
  /** `getZodConstraint(AutoBatchSchema)` from the loader. */
  constraint: FormConstraint
  lastResult?: SubmissionResult<string[]>
  submitLabel: string
  cancelTo: string
  /** Why the user may not save (`whyNot` in the loader): the submit shows disabled with it. */
  deniedReason?: string | null
}) {
  const [form, fields] = useLazySchemaForm(loadSourceSchemas, {
    // on edit, the fields still as stored are not checked again, as in the action (decision 072)
    schemaOf: (schemas, formData) => schemas.autoBatchEditForm.schemaOf(formData, undefined),
    id: 'source-autobatch',
    constraint,
    lastResult,
    defaultValue: defaultValue as never,
    shouldValidate: 'onSubmit',
  })
  // a stored credential the list lacks (not visible to this user, or gone) is shown by its id, so an
  // unchanged save posts it as stored
  const credentialOptions = (current: unknown) => {
    const label = new Map(credentials.map((credential) => [credential.value, credential.label]))
    return withCurrent(
      credentials.map((credential) => credential.value),
      current,
    )
      .filter(Boolean)
      .map((value) => ({ value, label: label.get(value) ?? value }))
  }
  return (
    <FormCard deniedReason={deniedReason} form={form} submit={{ label: submitLabel }} cancelTo={cancelTo}>
      <input type="hidden" name="table" value={table} />
      {originalOf(lastResult, defaultValue.original) ? (
        <input type="hidden" name="original" value={originalOf(lastResult, defaultValue.original)} />
      ) : null}
      <Text mb="4" fontSize="sm">
        Table: <strong>{tableLabel}</strong>. New files announced on the queue are loaded through the table's default
        transform.
      </Text>
      <Field
        meta={fields.queue}
        label="Queue name"
        help="With its address, e.g. https://sqs.us-east-1.amazonaws.com/123456789012/new-files"
        inputProps={{ autoComplete: 'off' }}
      />
      <SimpleGrid columns={{ base: 1, md: 2 }} gapX="4">
        <Field meta={fields.region} label="Queue region" />
        <Field meta={fields.pattern} label="Regex filter" help="Only object paths matching it are loaded." />
        <SelectField
          meta={fields.sourceCredential}
          label="Source credential"
          placeholder="None"
          options={credentialOptions(fields.sourceCredential.initialValue)}
        />
        <SelectField
          meta={fields.bucketCredential}
          label="Bucket credential"
          placeholder="None"
          options={credentialOptions(fields.bucketCredential.initialValue)}
        />
      </SimpleGrid>
      <CheckboxField meta={fields.dryRun} label="Dry run" help="Read and check the files without storing rows." />
      <SimpleGrid columns={{ base: 1, md: 3 }} gapX="4">
        <Field meta={fields.maxMinutes} label="Max minutes per partition" inputProps={{ inputMode: 'numeric' }} />
        <Field meta={fields.maxRows} label="Max rows per partition" inputProps={{ inputMode: 'numeric' }} />
        <Field meta={fields.maxActive} label="Max active partitions" inputProps={{ inputMode: 'numeric' }} />
      </SimpleGrid>
    </FormCard>
  )
}
