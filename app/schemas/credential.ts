import { z } from 'zod'
import { defineEditForm, keptFieldsOfForm, type FieldPlaces } from './lossless'
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

/** Where each edit field is written in the credential: name, description and the non-secret details. */
export function credentialPlaces(fields: readonly CredentialFieldSpec[] | null): FieldPlaces {
  const places: FieldPlaces = { name: [['name']], description: [['description']] }
  for (const field of fields ?? []) if (!field.secret) places[`details.${field.key}`] = [['details', field.key]]
  return places
}

/** What the credential form's rule needs besides the form: the type's fields, and whether a blank secret keeps the stored one. */
export type CredentialFormContext = { fields: CredentialFieldSpec[] | null; keepsSecrets: boolean }

/** The credential edit form's fields posted as rendered from the stored credential (browser and action alike). */
export function keptCredentialFields(formData: FormData, fields: readonly CredentialFieldSpec[] | null): string[] {
  return keptFieldsOfForm(formData, credentialPlaces(fields), ['description'])
}

/** The credential form's lossless rule (decision 103): the browser's check and the action's parse. */
export const credentialEditForm = defineEditForm<CredentialFormContext, ReturnType<typeof credentialFormSchema>>({
  name: 'credential',
  kept: (formData, context) => keptCredentialFields(formData, context.fields),
  schemaOf: (formData, context) =>
    credentialFormSchema(context.fields, {
      keepsSecrets: context.keepsSecrets,
      kept: keptCredentialFields(formData, context.fields),
    }),
  // a required detail another tool left empty (a real cluster's type may not require it)
  example: {
    rendered: { name: 'c', description: '', type: 'aws_access_keys', 'details.region': '' },
    context: {
      fields: [
        { key: 'region', label: 'Region', required: true, secret: false },
        { key: 'secret_key', label: 'Secret key', required: true, secret: true },
      ],
      keepsSecrets: true,
    },
    strict: credentialFormSchema(
      [
        { key: 'region', label: 'Region', required: true, secret: false },
        { key: 'secret_key', label: 'Secret key', required: true, secret: true },
      ],
      { keepsSecrets: true },
    ),
  },
})
