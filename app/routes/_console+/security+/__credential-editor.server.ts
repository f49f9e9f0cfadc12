import { parseWithZod } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import type { ClusterApi } from '~/api/client.server'
import {
  createCredential,
  listCredentialTypes,
  updateCredential,
  type Credential,
  type CredentialType,
} from '~/api/credentials.server'
import { replyFromCluster } from '~/api/policies.server'
import {
  CREDENTIAL_MESSAGES,
  credentialEditForm,
  credentialPlaces,
  credentialFormSchema,
  labelOfKey,
  PICK_TYPE_INTENT,
  parseKeyFile,
  typeOfKeyFile,
  type CredentialFieldSpec,
} from '~/schemas/credential'
import { parseOriginal } from '~/schemas/lossless'
import { parseEdit, saveEdit } from '~/services/edit-save.server'
import { redirectWithToast } from '~/utils/toast.server'

/** A credential type as the form offers it: key, a label, its cloud and its fields. */
export type CredentialTypeOption = {
  value: string
  label: string
  cloud: string
  fields: CredentialFieldSpec[]
}

// A cluster that flags no field of a type as secret: a key that names a secret is treated as one.
const SECRET_KEY = /secret|password|(token|private_key|account_key)$/i

/** The cluster's `/credentials/types/` as the form's options, sorted by label. */
export function typeOptions(types: Record<string, CredentialType>): CredentialTypeOption[] {
  return Object.entries(types)
    .map(([value, type]) => {
      const hasFlags = Object.values(type.fields).some((field) => field.secret !== undefined)
      return {
        value,
        label: type.description ? `${type.description}` : labelOfKey(value),
        cloud: type.cloud ?? '',
        fields: Object.entries(type.fields).map(([key, field]) => ({
          key,
          label: field.label ?? labelOfKey(key),
          required: Boolean(field.required),
          secret: hasFlags ? Boolean(field.secret) : SECRET_KEY.test(key),
        })),
      }
    })
    .sort((a, b) => a.cloud.localeCompare(b.cloud) || a.label.localeCompare(b.label))
}

/** The credential form's data: the types the cluster offers. Throws ClusterError. */
export async function loadCredentialEditor(api: ClusterApi) {
  return { types: typeOptions(await listCredentialTypes(api)) }
}

/**
 * A credential as the edit form's values: name, description, type and the non-secret details.
 * Secret details are left out (they are never sent to the browser, not even masked).
 */
export function credentialFormValues(credential: Credential, type: CredentialTypeOption | undefined) {
  const details: Record<string, string> = {}
  for (const field of type?.fields ?? []) {
    const value = credential.details?.[field.key]
    if (!field.secret && value !== undefined && value !== null)
      details[field.key] = typeof value === 'string' ? value : JSON.stringify(value)
  }
  // what the form renders, for a save that writes only what changed (decision 074): never a secret
  const rendered = {
    name: credential.name,
    description: credential.description ?? '',
    ...Object.fromEntries(Object.entries(details).map(([key, value]) => [`details.${key}`, value])),
  }
  return {
    name: credential.name,
    description: credential.description ?? '',
    type: credential.type ?? '',
    details,
    original: JSON.stringify(rendered),
  }
}

/** Which secrets a credential has stored (without their values): the edit form says "stored". */
export function storedSecrets(credential: Credential, type: CredentialTypeOption | undefined): string[] {
  return (type?.fields ?? [])
    .filter((field) => field.secret && credential.details?.[field.key])
    .map((field) => field.key)
}

const SECRETS_NOTE = 'Secrets are not sent back to the browser: enter them again, or upload the key file again.'

/**
 * Creates a credential from the form, or changes `existing`. An uploaded JSON key file (`keyFile`)
 * fills the type's fields the user left empty, and picks the type when none was chosen. A blank
 * secret on edit keeps the stored one. `intent=pick-type` only redisplays the form for the chosen
 * type (no scripts). Errors come back on the fields with everything typed kept, except secrets.
 * Redirects to the credential with a toast.
 */
export async function saveCredentialAction(api: ClusterApi, formData: FormData, existing?: Credential) {
  const types = typeOptions(await listCredentialTypes(api))
  const keyFile = formData.get('keyFile')
  let fromFile: Record<string, string> | null = null
  let fileError: string | null = null
  if (keyFile && typeof keyFile === 'object' && keyFile.size > 0) {
    fromFile = parseKeyFile(await keyFile.text())
    if (!fromFile) fileError = CREDENTIAL_MESSAGES.keyFileJson
  }

  // The form's values as conform reads them, with the key file's values where the user typed none.
  const form = new FormData()
  for (const [key, value] of formData) if (key !== 'keyFile' && typeof value === 'string') form.append(key, value)
  const typeKey =
    existing?.type ??
    (String(formData.get('type') ?? '') ||
      (fromFile &&
        typeOfKeyFile(
          fromFile,
          types.map((type) => type.value),
        )) ||
      '')
  form.set('type', typeKey)
  const type = types.find((option) => option.value === typeKey)
  for (const field of type?.fields ?? []) {
    const name = `details.${field.key}`
    if (!String(form.get(name) ?? '').trim() && fromFile?.[field.key] !== undefined)
      form.set(name, fromFile[field.key]!)
  }

  const hideFields = (type?.fields ?? []).filter((field) => field.secret).map((field) => `details.${field.key}`)
  const hasSecrets = hideFields.some((name) => String(form.get(name) ?? '') !== '')
  const notes = hasSecrets ? [SECRETS_NOTE] : []

  const isPickingType = formData.get('intent') === PICK_TYPE_INTENT
  // an edit with its `original` writes only the fields posted otherwise than rendered (decision 074),
  // by the same rule as the browser's check (decision 103)
  const context = { fields: type?.fields ?? null, keepsSecrets: Boolean(existing) }
  const { kept, submission } = parseEdit(form, credentialEditForm, context, {
    isEdit: Boolean(existing),
    strict: credentialFormSchema(context.fields, context),
  })
  if (isPickingType) {
    // Nothing is checked yet: the user only asked for the type's fields.
    const reply = parseWithZod(form, {
      schema: credentialFormSchema(null),
    }).reply({ hideFields })
    return data(
      {
        result: {
          ...reply,
          status: undefined,
          error: hasSecrets ? { '': notes } : undefined,
        },
      },
      { status: 200 },
    )
  }
  if (submission.status !== 'success' || fileError) {
    return data(
      {
        result: submission.reply({
          hideFields,
          ...(notes.length ? { formErrors: notes } : {}),
          ...(fileError ? { fieldErrors: { keyFile: [fileError] } } : {}),
        }),
      },
      { status: 400 },
    )
  }

  const value = submission.value
  const details: Record<string, string> = {}
  for (const field of type?.fields ?? []) {
    const entry = (value.details as Record<string, string | undefined>)[field.key]?.trim() ?? ''
    // Blank: a secret keeps what is stored, any other field is cleared on edit and left out on create.
    if (entry === '' && (field.secret || !existing)) continue
    details[field.key] = entry
  }
  const rename: Record<string, string> = {
    name: 'name',
    description: 'description',
    type: 'type',
  }
  for (const field of type?.fields ?? []) rename[`details.${field.key}`] = `details.${field.key}`

  const done = (saved: Credential) =>
    redirectWithToast(`/security/credentials/${saved.uuid}`, {
      title: `Credential ${saved.name} ${existing ? 'saved' : 'created'}`,
      type: 'success',
    })
  if (!existing) {
    try {
      return await done(
        await createCredential(api, {
          name: value.name,
          description: value.description ?? '',
          type: value.type,
          details,
        }),
      )
    } catch (error) {
      return replyFromCluster(submission, error, { rename, hideFields, notes })
    }
  }
  const labels: Record<string, string> = { name: 'Name', description: 'Description' }
  for (const field of type?.fields ?? []) labels[`details.${field.key}`] = field.label
  // an edit's save (decision 074): only the changed name, description and non-secret details, and
  // the secrets typed, are sent (PATCH: the cluster merges details); nothing when none changed
  return saveEdit(api, submission, {
    formData: form,
    kept,
    // no silent lost update (decision 097): `existing` is the credential as the cluster holds it now
    read: async () => existing,
    rendered: (stored) => parseOriginal(credentialFormValues(stored, type).original)!,
    places: credentialPlaces(context.fields),
    alsoWrites: Object.fromEntries(
      (type?.fields ?? [])
        .filter((field) => field.secret)
        .map((field) => [`details.${field.key}`, [['details', field.key]]]),
    ),
    labels,
    multiline: ['description'],
    onto: () => ({}),
    body: () => ({ name: value.name, description: value.description ?? '', details }),
    write: async (change) => {
      if (isObjectEmpty(change.details)) delete change.details
      return Object.keys(change).length ? updateCredential(api, existing.uuid, change) : existing
    },
    done,
    rename,
    hideFields,
    notes,
  })
}

const isObjectEmpty = (value: unknown) => typeof value === 'object' && value !== null && Object.keys(value).length === 0
