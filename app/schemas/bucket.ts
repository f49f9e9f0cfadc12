import { z } from 'zod'
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
  return z.object(shape as typeof BucketFormSchema.shape)
}
