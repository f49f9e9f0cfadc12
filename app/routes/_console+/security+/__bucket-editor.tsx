import type { SubmissionResult } from '@conform-to/react'
import { originalOf } from '~/utils/edit-conflict'
import { Text } from '~/components/ui/box'
import { CheckboxField } from '~/components/forms/checkbox-field'
import { Field, TextareaField } from '~/components/forms/field'
import { FormCard } from '~/components/forms/form-card'
import { SelectField } from '~/components/forms/select-field'
import { useLazySchemaForm, type FormConstraint } from '~/components/forms/use-lazy-schema-form'

// Fetched after hydration; the HTML constraints come from the loader (decision 032).
const loadBucketSchemas = () => import('~/schemas/bucket')

/** The clouds the cluster accepts, with their names. */
const CLOUD_OPTIONS = [
  { value: 'aws', label: 'AWS (S3)' },
  { value: 'gcp', label: 'Google Cloud Storage' },
  { value: 'azure', label: 'Azure Blob Storage' },
  { value: 'linode', label: 'Linode' },
  { value: 'akamai', label: 'Akamai' },
  { value: 'oci', label: 'Oracle Cloud (OCI)' },
  { value: 'minio', label: 'MinIO' },
  { value: 'local', label: 'Local disk' },
]

const IO_PERF_OPTIONS = [
  { value: 'aggressive', label: 'Aggressive' },
  { value: 'moderate', label: 'Moderate' },
  { value: 'relaxed', label: 'Relaxed' },
]

/**
 * The bucket form (create and edit): name, description, cloud, bucket name and path, region,
 * endpoint, credential, I/O mode and "default bucket". `lastResult` is the action's reply, so field
 * errors and everything typed come back after a failed submission.
 */
export function BucketEditor({
  credentials,
  credentialsError,
  constraint,
  defaultValue,
  lastResult,
  submitLabel,
  submitIntent,
  cancelTo,
  deniedReason,
}: {
  credentials: { uuid: string; name: string; cloud: string }[]
  credentialsError?: string | null
  /** `getZodConstraint(BucketFormSchema)`, from the loader (`loadBucketEditor`). */
  constraint: FormConstraint
  defaultValue?: Record<string, string>
  lastResult?: SubmissionResult<string[]>
  submitLabel: string
  /** Sent as the hidden `intent` when the page's action does more than one thing. */
  submitIntent?: string
  cancelTo: string
  /** Why the user may not save (`whyNot` in the loader): the submit shows disabled with it. */
  deniedReason?: string | null
}) {
  // a stored value the lists do not hold (a credential deleted since, a cloud of a newer cluster) is offered as it is
  const current = (options: { value: string; label: string }[], value: string | undefined, label: string) =>
    value && !options.some((option) => option.value === value)
      ? [...options, { value, label: `${label} ${value}` }]
      : options
  const [form, fields] = useLazySchemaForm(loadBucketSchemas, {
    // on edit, the fields still as stored are not checked again, as in the action (decision 103)
    schemaOf: (schemas, formData) =>
      formData.has('original') ? schemas.bucketEditForm.schemaOf(formData, undefined) : schemas.BucketFormSchema,
    id: 'bucket-editor',
    constraint,
    lastResult,
    defaultValue,
  })
  return (
    <FormCard deniedReason={deniedReason} form={form} submit={{ label: submitLabel }} cancelTo={cancelTo}>
      {submitIntent ? <input type="hidden" name="intent" value={submitIntent} /> : null}
      {originalOf(lastResult, defaultValue?.original) ? (
        <input type="hidden" name="original" value={originalOf(lastResult, defaultValue?.original)} />
      ) : null}
      <Field meta={fields.name} label="Name" inputProps={{ autoComplete: 'off' }} />
      <TextareaField meta={fields.description} label="Description" rows={2} />
      <SelectField
        meta={fields.cloud}
        label="Cloud"
        options={current(CLOUD_OPTIONS, defaultValue?.cloud, 'Cloud')}
        placeholder="Select a cloud"
      />
      <Field meta={fields.bucket_name} label="Bucket name" inputProps={{ autoComplete: 'off' }} />
      <Field meta={fields.bucket_path} label="Bucket path" help="Where in the bucket data goes; / when left empty." />
      <Field meta={fields.region} label="Region" help="For example us-east-1." />
      <Field meta={fields.endpoint} label="Endpoint" help="Only for S3-compatible stores outside the big clouds." />
      <SelectField
        meta={fields.credential_id}
        label="Credential"
        options={current(
          credentials.map((credential) => ({
            value: credential.uuid,
            label: credential.cloud ? `${credential.name} (${credential.cloud})` : credential.name,
          })),
          defaultValue?.credential_id,
          'Unknown credential',
        )}
        placeholder="None (the cluster's own access)"
        help={credentialsError ? `Credentials could not be listed: ${credentialsError}` : undefined}
      />
      <SelectField
        meta={fields.io_perf_mode}
        label="I/O mode"
        options={current(IO_PERF_OPTIONS, defaultValue?.io_perf_mode, 'Mode')}
        placeholder="The cluster's default (moderate)"
      />
      <CheckboxField
        meta={fields.is_default}
        label="Default bucket"
        help="New tables store their data here. Only one bucket is the default."
      />
      {credentials.length === 0 && !credentialsError ? (
        <Text fontSize="sm" color="fg.muted" mb="4">
          No credentials yet: a bucket without one uses the cluster's own access.
        </Text>
      ) : null}
    </FormCard>
  )
}
