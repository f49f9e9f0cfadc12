import { z } from 'zod'

/** Spec section 5, File: the project must be selected; the rest are this console's words. */
export const FILE_MESSAGES = {
  projectRequired: 'Project must be selected',
  fileRequired: 'File upload is required',
  nameCharacters: 'File names may contain letters, digits, dots, dashes and underscores, and cannot start with a dot',
  nameTooLong: 'File names are at most 255 characters',
} as const

export { FILE_EXTENSIONS, MAX_UPLOAD_BYTES } from './file-values'
import { FILE_EXTENSIONS } from './file-values'

/** What a file name may be (the cluster's own rule). */
export const FILE_NAME_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/

/** A file input's value as the browser or the server's upload handler gives it (a name when on disk). */
const fileValue = z.custom<File | string>(
  (value) =>
    typeof value === 'string'
      ? value !== ''
      : typeof File !== 'undefined' && value instanceof File && (value.size > 0 || value.name !== ''),
  { error: FILE_MESSAGES.fileRequired },
)

const nameField = z
  .string()
  .trim()
  .max(255, { error: FILE_MESSAGES.nameTooLong })
  .regex(FILE_NAME_PATTERN, { error: FILE_MESSAGES.nameCharacters })

/** The new-file form: project, an optional name (the upload's own name when empty), the file. */
export const NewFileFormSchema = z.object({
  project: z.string({ error: FILE_MESSAGES.projectRequired }),
  name: nameField.optional(),
  file: fileValue,
})

/** The update-file form: the new contents only (project and name are in the URL). */
export const ReplaceFileFormSchema = z.object({ file: fileValue })

export type NewFileForm = z.infer<typeof NewFileFormSchema>

/**
 * Checks an upload's first bytes against the format its extension declares; returns the field
 * error or undefined. Text formats carry no NUL byte; JSON starts with `{` or `[`; Parquet with PAR1.
 */
export function formatProblem(fileName: string, head: Uint8Array): string | undefined {
  const extension = /\.[^.]+$/.exec(fileName.toLowerCase())?.[0] ?? ''
  if (!(FILE_EXTENSIONS as readonly string[]).includes(extension)) {
    return `Upload a ${FILE_EXTENSIONS.join(', ')} file (this one is ${extension || 'without an extension'})`
  }
  if (extension === '.parquet') {
    const magic = String.fromCharCode(...head.slice(0, 4))
    return magic === 'PAR1' ? undefined : 'The file is not Parquet: it does not start with PAR1'
  }
  if (head.includes(0)) return `The file is not ${extension.slice(1).toUpperCase()}: it holds binary data`
  if (extension === '.json' || extension === '.jsonl' || extension === '.ndjson') {
    const text = new TextDecoder()
      .decode(head)
      .replace(/^\uFEFF/, '')
      .trimStart()
    if (text && !text.startsWith('{') && !text.startsWith('['))
      return `The file is not JSON: it starts with “${text.slice(0, 12)}”`
  }
  return undefined
}
