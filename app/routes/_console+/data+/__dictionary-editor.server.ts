import { parseWithZod } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import type { ClusterApi } from '~/api/client.server'
import {
  createDictionary,
  dictionaryBody,
  getDictionary,
  updateDictionary,
  type Dictionary,
  type DictionaryInput,
} from '~/api/dictionaries.server'
import { listDictionaryFiles } from '~/api/dictionary-files.server'
import { replyFromCluster } from '~/api/policies.server'
import { listProjects } from '~/api/projects.server'
import fs from 'node:fs'
import { uploadDictionaryFile } from '~/api/dictionary-files.server'
import { FILE_NAME_PATTERN, FILE_MESSAGES, formatProblem } from '~/schemas/file'
import { readMultipart, TOO_BIG_MESSAGE, UPLOAD_FAILURE } from './__file-upload.server'
import {
  DICTIONARY_PLACES,
  DictionaryNewFormSchema,
  dictionaryEditForm,
  dictionaryFormSchema,
  parsePrimaryKey,
  parseSchemaDefinition,
  type DictionaryForm,
} from '~/schemas/dictionary'
import type { Json } from '~/schemas/lossless'
import { parseEdit, saveEdit } from '~/services/edit-save.server'
import { redirectWithToast } from '~/utils/toast.server'
import type { DictionaryFormValues } from './__dictionary-editor'
import { dictionaryUrl } from './__dictionary-url'
import { isConsoleProject } from '~/utils/console-store'

/** Where the cluster's dictionary fields (flattened) show on the form; an engine load error is a form error. */
export const DICTIONARY_FIELDS: Record<string, string> = {
  name: 'name',
  description: 'description',
  'settings.filename': 'file',
  'settings.format': 'format',
  'settings.layout': 'layout',
  'settings.lifetime_seconds': 'lifetimeSeconds',
  'settings.primary_key': 'primaryKey',
  'settings.output_columns': 'schemaDefinition',
  'settings.load_level': 'loadLevel',
}

/** The form's projects and every project's files (names); throws ClusterError. */
export async function loadDictionaryChoices(api: ClusterApi, onlyProject?: string) {
  const projects = (await listProjects(api))
    .filter((project) => !isConsoleProject(project) || project.uuid === onlyProject)
    .map((project) => ({ uuid: project.uuid, name: project.name }))
  const wanted = onlyProject ? projects.filter((project) => project.uuid === onlyProject) : projects
  const files = (
    await Promise.all(
      wanted.map(async (project) =>
        (await listDictionaryFiles(api, project.uuid)).map((file) => ({ projectId: project.uuid, name: file.name })),
      ),
    )
  ).flat()
  return { projects, files }
}

/** The edit form's fields as a conflict names them. */
const DICTIONARY_LABELS: Record<string, string> = {
  name: 'Dictionary name',
  description: 'Description',
  file: 'File',
  format: 'Format',
  layout: 'Layout',
  schemaDefinition: 'Schema definition (JSON)',
  primaryKey: 'Primary key (JSON)',
  lifetimeSeconds: 'Lifetime (seconds)',
  loadLevel: 'Load level',
}

/** A stored dictionary as the form's values. */
export function formValuesOf(projectId: string, dictionary: Dictionary): DictionaryFormValues {
  const s = dictionary.settings ?? {}
  return {
    project: projectId,
    name: dictionary.name,
    description: dictionary.description ?? '',
    schemaDefinition: JSON.stringify(s.output_columns ?? []),
    primaryKey: JSON.stringify(s.primary_key ?? []),
    lifetimeSeconds: s.lifetime_seconds === undefined || s.lifetime_seconds === null ? '' : String(s.lifetime_seconds),
    loadLevel: str(s.load_level),
    format: str(s.format),
    layout: str(s.layout),
    file: str(s.filename),
  }
}

const str = (value: unknown) => (value === undefined || value === null ? '' : String(value))

/**
 * The edit form's values: the rendered values, and the same as `original` (JSON), so a save writes
 * only the fields the operator changed onto the stored dictionary (decisions 072 and 073).
 */
export function dictionaryEditValues(projectId: string, dictionary: Dictionary): DictionaryFormValues {
  const rendered = formValuesOf(projectId, dictionary)
  return { ...rendered, original: JSON.stringify(rendered) }
}

/** The form's values as the API's input; a kept field's value is not read (it may be anything stored). */
function inputOf(form: DictionaryForm): DictionaryInput {
  return {
    name: form.name,
    description: form.description,
    filename: form.file,
    format: form.format,
    layout: form.layout,
    lifetimeSeconds: form.lifetimeSeconds,
    primaryKey: parsePrimaryKey(String(form.primaryKey ?? '')) ?? [],
    outputColumns: parseSchemaDefinition(String(form.schemaDefinition ?? '')) ?? [],
    loadLevel: form.loadLevel,
  }
}

/** The stored dictionary's writable keys: what an edit's changed fields are written onto. */
function writableDictionary(stored: Dictionary): Json {
  return {
    name: stored.name,
    ...(stored.description !== undefined ? { description: stored.description } : {}),
    settings: stored.settings ?? {},
  }
}

/**
 * Creates the dictionary (the cluster loads its file); redirects to its page, which shows it
 * answering a lookup. The file is one of the project's or uploaded in the same form (multipart,
 * `upload`: checked as on the file pages, then stored under its own name before the dictionary is
 * made). Validation and the cluster's 400s (a load the engine refused among them) come back on the
 * form with everything typed kept (but the chosen upload, which a browser cannot be given back).
 */
export async function createDictionaryAction(api: ClusterApi, request: Request) {
  let read: Awaited<ReturnType<typeof readMultipart>>
  try {
    read = await readMultipart(request, 'upload')
  } catch {
    const submission = parseWithZod(new FormData(), { schema: DictionaryNewFormSchema })
    return data({ result: submission.reply({ formErrors: [UPLOAD_FAILURE] }) }, { status: 400 })
  }
  try {
    return await createFromForm(api, read.formData, read.upload)
  } finally {
    read.cleanup()
  }
}

async function createFromForm(
  api: ClusterApi,
  formData: FormData,
  upload: Awaited<ReturnType<typeof readMultipart>>['upload'],
) {
  const submission = parseWithZod(formData, { schema: DictionaryNewFormSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const form = submission.value
  const uploadError = (messages: string[]) =>
    data({ result: submission.reply({ fieldErrors: { upload: messages } }) }, { status: 400 })
  let file = form.file ?? ''
  if (upload) {
    if (!FILE_NAME_PATTERN.test(upload.filename)) return uploadError([FILE_MESSAGES.nameCharacters])
    if (upload.isTooBig) return uploadError([TOO_BIG_MESSAGE])
    const problem = formatProblem(upload.filename, upload.head)
    if (problem) return uploadError([problem])
    try {
      const blob = await fs.openAsBlob(upload.path, { type: upload.contentType })
      file = (await uploadDictionaryFile(api, form.project, upload.filename, blob)).name ?? upload.filename
      // stored now: if the dictionary is refused, the form comes back with this file picked
      ;(submission.payload as Record<string, unknown>).file = file
    } catch (error) {
      // a 400 at the upload, any other failure at the top of the form: what was typed is kept either way
      return replyFromCluster(submission, error, { rename: { name: 'upload', file: 'upload' } })
    }
  }
  try {
    const created = await createDictionary(api, form.project, inputOf({ ...form, file }))
    return redirectWithToast(dictionaryUrl(submission.value.project, created.uuid), {
      title: `Dictionary ${created.name} created`,
      type: 'success',
    })
  } catch (error) {
    return replyFromCluster(submission, error, { rename: DICTIONARY_FIELDS })
  }
}

/**
 * Saves the dictionary (the cluster reloads it): the stored dictionary with only the fields the
 * operator changed written onto it (decision 073); redirects back to its page with a toast.
 */
export async function updateDictionaryAction(
  api: ClusterApi,
  projectId: string,
  dictionaryId: string,
  formData: FormData,
) {
  // the same rule as the browser's check (decision 103)
  const { kept, submission } = parseEdit(formData, dictionaryEditForm, undefined, { strict: dictionaryFormSchema() })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  return saveEdit(api, submission, {
    formData,
    kept,
    // no silent lost update (decision 097)
    read: () => getDictionary(api, projectId, dictionaryId),
    rendered: (stored) => formValuesOf(projectId, stored),
    places: DICTIONARY_PLACES,
    labels: DICTIONARY_LABELS,
    multiline: ['description', 'schemaDefinition'],
    onto: writableDictionary,
    body: (form) => dictionaryBody(inputOf(form)),
    write: (body) => updateDictionary(api, projectId, dictionaryId, body),
    done: (saved) =>
      redirectWithToast(dictionaryUrl(projectId, saved.uuid ?? dictionaryId), {
        title: `Dictionary ${saved.name} saved`,
        type: 'success',
      }),
    rename: DICTIONARY_FIELDS,
  })
}
