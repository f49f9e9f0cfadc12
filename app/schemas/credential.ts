import { z } from 'zod'
import { NAME_MAX_LENGTH } from './table'

// The key file readers have no zod: the credential form imports them from there (decision 032).
export { parseKeyFile, PICK_TYPE_INTENT, typeOfKeyFile } from './credential-values'

/** Spec section 5: "Credential: Name and Type required, plus type-specific fields". */
export const CREDENTIAL_MESSAGES = {
  nameRequired: 'Name is required',
  nameTooLong: 'Name must be under 64 symbols',
  typeRequired: 'Type is required',
  keyFileJson: 'The key file must be a JSON object',
} as const

/** What the form needs to know of a credential type's field (from the cluster's `/credentials/types/`). */
export type CredentialFieldSpec = {
  key: string
  label: string
  required: boolean
  secret: boolean
}

/** "Private key is required": the type-specific field's own required message. */
export function fieldRequiredMessage(field: Pick<CredentialFieldSpec, 'label'>): string {
  return `${field.label} is required`
}

/** A field key as a label when the cluster gives none: `private_key_id` → "Private key id". */
export function labelOfKey(key: string): string {
  const text = key.replace(/_/g, ' ')
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/**
 * The credential form for one type: name, description, type, and `details.<field>` for each of the
 * type's fields. On edit (`keepsSecrets`) a blank secret is allowed: it keeps the stored one, and
 * the fields posted as the form rendered them (`kept`, decision 074) are not checked again.
 * Without a known type only name and type are checked (the type is what is missing).
 */
export function credentialFormSchema(
  fields: CredentialFieldSpec[] | null,
  options: { keepsSecrets?: boolean; kept?: readonly string[] } = {},
) {
  const kept = options.kept ?? []
  const details: Record<string, z.ZodType<string | undefined>> = {}
  for (const field of fields ?? []) {
    // a field posted as the edit form rendered it is not checked again (decision 074)
    const isRequired =
      field.required && !(field.secret && options.keepsSecrets) && !kept.includes(`details.${field.key}`)
    details[field.key] = isRequired
      ? z
          .string({ error: fieldRequiredMessage(field) })
          .trim()
          .min(1, { error: fieldRequiredMessage(field) })
      : z.string().optional()
  }
  return z.object({
    name: kept.includes('name')
      ? z.string()
      : z
          .string({ error: CREDENTIAL_MESSAGES.nameRequired })
          .trim()
          .min(1, { error: CREDENTIAL_MESSAGES.nameRequired })
          .max(NAME_MAX_LENGTH, { error: CREDENTIAL_MESSAGES.nameTooLong }),
    description: z.string().trim().optional(),
    type: z.string({ error: CREDENTIAL_MESSAGES.typeRequired }).min(1, { error: CREDENTIAL_MESSAGES.typeRequired }),
    // Conform leaves out an object whose every field is empty: default it, so each field is still checked.
    details: z.object(details).default({} as Record<string, string | undefined>),
  })
}

export type CredentialForm = z.infer<ReturnType<typeof credentialFormSchema>>
