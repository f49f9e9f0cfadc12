import { z } from 'zod'
import { defineEditForm, keptFieldsOfForm, type FieldPlaces } from './lossless'
import { NAME_MAX_LENGTH } from './table'

/** Spec section 5: "Bucket: Name, Bucket name and Cloud required". */
export const BUCKET_MESSAGES = {
  nameRequired: 'Name is required',
  nameTooLong: 'Name must be under 64 symbols',
  bucketNameRequired: 'Bucket name is required',
  cloudRequired: 'Cloud is required',
} as const

/** The bucket form (create and edit). Field names follow the cluster's settings keys. */
export const BucketFormSchema = z.object({
  name: z
    .string({ error: BUCKET_MESSAGES.nameRequired })
    .trim()
    .min(1, { error: BUCKET_MESSAGES.nameRequired })
    .max(NAME_MAX_LENGTH, { error: BUCKET_MESSAGES.nameTooLong }),
  description: z.string().trim().optional(),
  bucket_name: z
    .string({ error: BUCKET_MESSAGES.bucketNameRequired })
    .trim()
    .min(1, { error: BUCKET_MESSAGES.bucketNameRequired }),
  cloud: z.string({ error: BUCKET_MESSAGES.cloudRequired }).trim().min(1, { error: BUCKET_MESSAGES.cloudRequired }),
  region: z.string().trim().optional(),
  bucket_path: z.string().trim().optional(),
  endpoint: z.string().trim().optional(),
  credential_id: z.string().trim().optional(),
  io_perf_mode: z.string().trim().optional(),
  is_default: z.literal('on').optional(),
})

export type BucketForm = z.infer<typeof BucketFormSchema>

/**
 * The form's schema for an edit: the fields posted as the form rendered them (`kept`) are not
 * checked again, so a stored value the form would refuse stays as stored (decision 074).
 */
export function bucketFormSchema(kept: readonly string[] = []) {
  if (!kept.length) return BucketFormSchema
  const shape: Record<string, z.ZodType> = { ...BucketFormSchema.shape }
  for (const key of kept) if (key in shape) shape[key] = z.string().optional()
  return z.object(shape as typeof BucketFormSchema.shape) as unknown as typeof BucketFormSchema
}

/** Where each bucket field is written in the storage. */
export const BUCKET_PLACES: FieldPlaces = {
  name: [['name']],
  description: [['description']],
  ...Object.fromEntries(
    ['bucket_name', 'cloud', 'region', 'bucket_path', 'endpoint', 'credential_id', 'io_perf_mode', 'is_default'].map(
      (field) => [field, [['settings', field]]],
    ),
  ),
}

/** The bucket edit form's fields posted as rendered from the stored bucket (browser and action alike). */
export function keptBucketFields(formData: FormData): string[] {
  return keptFieldsOfForm(formData, BUCKET_PLACES, ['description'])
}

/** The bucket form's lossless rule (decision 103): the browser's check and the action's parse. */
export const bucketEditForm = defineEditForm({
  name: 'bucket',
  kept: keptBucketFields,
  schemaOf: (formData) => bucketFormSchema(keptBucketFields(formData)),
  // a name longer than the form allows, as another tool or a newer cluster may store it
  example: {
    rendered: { name: 'b'.repeat(NAME_MAX_LENGTH + 1), description: '', bucket_name: 'data', cloud: 'aws' },
    context: undefined,
    strict: BucketFormSchema,
  },
})
