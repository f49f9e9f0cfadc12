/* The credential form's values without zod (a page that loads them does not load the schema). */

/** The intent of the no-script "Show the fields for this type" button: redisplay, do not save. */
export const PICK_TYPE_INTENT = 'pick-type'

/**
 * Reads an uploaded key file (a GCP service account's JSON, for one) into text values by key;
 * nested values become JSON text. Returns null when it is not a JSON object.
 */
export function parseKeyFile(text: string): Record<string, string> | null {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return null
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== null && entry !== undefined)
      .map(([key, entry]) => [key, typeof entry === 'string' ? entry : JSON.stringify(entry)]),
  )
}

/** The type a key file is for, when it says (`"type": "service_account"` is a GCP service account key). */
export function typeOfKeyFile(file: Record<string, string>, types: string[]): string | null {
  if (file.type === 'service_account') return types.find((type) => type.startsWith('gcp')) ?? null
  if (file.role_arn) return types.find((type) => type === 'aws_role') ?? null
  if (file.access_key_id && file.secret_access_key) return types.find((type) => type.startsWith('aws')) ?? null
  return null
}
