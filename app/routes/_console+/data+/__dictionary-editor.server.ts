import { parseWithZod } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import type { ClusterApi } from '~/api/client.server'
import { createDictionary, updateDictionary, type Dictionary, type DictionaryInput } from '~/api/dictionaries.server'
import { listDictionaryFiles } from '~/api/dictionary-files.server'
import { replyFromCluster } from '~/api/policies.server'
import { listProjects } from '~/api/projects.server'
import { DictionaryFormSchema, parsePrimaryKey, parseSchemaDefinition, type DictionaryForm } from '~/schemas/dictionary'
import { redirectWithToast } from '~/utils/toast.server'
import type { DictionaryFormValues } from './__dictionary-editor'
import { dictionaryUrl } from './__dictionary-url'

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
  const projects = (await listProjects(api)).map((project) => ({ uuid: project.uuid, name: project.name }))
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

/** A stored dictionary as the form's values. */
export function formValuesOf(projectId: string, dictionary: Dictionary): DictionaryFormValues {
  const s = dictionary.settings ?? {}
  return {
    project: projectId,
    name: dictionary.name,
    description: dictionary.description ?? '',
    schemaDefinition: JSON.stringify(s.output_columns ?? []),
    primaryKey: JSON.stringify(s.primary_key ?? []),
    lifetimeSeconds: s.lifetime_seconds === undefined ? '' : String(s.lifetime_seconds),
    loadLevel: s.load_level ?? '',
    format: s.format ?? '',
    layout: s.layout ?? '',
    file: s.filename ?? '',
  }
}

function inputOf(form: DictionaryForm): DictionaryInput {
  return {
    name: form.name,
    description: form.description,
    filename: form.file,
    format: form.format,
    layout: form.layout,
    lifetimeSeconds: form.lifetimeSeconds,
    primaryKey: parsePrimaryKey(form.primaryKey)!,
    outputColumns: parseSchemaDefinition(form.schemaDefinition)!,
    loadLevel: form.loadLevel,
  }
}

/**
 * Creates the dictionary (the cluster loads its file); redirects to its page, which shows it
 * answering a lookup. Validation and the cluster's 400s (a load the engine refused among them)
 * come back on the form with everything typed kept.
 */
export async function createDictionaryAction(api: ClusterApi, formData: FormData) {
  const submission = parseWithZod(formData, { schema: DictionaryFormSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    const created = await createDictionary(api, submission.value.project, inputOf(submission.value))
    return redirectWithToast(dictionaryUrl(submission.value.project, created.uuid), {
      title: `Dictionary ${created.name} created`,
      type: 'success',
    })
  } catch (error) {
    return replyFromCluster(submission, error, { rename: DICTIONARY_FIELDS })
  }
}

/** Saves the dictionary (the cluster reloads it); redirects back to its page with a toast. */
export async function updateDictionaryAction(
  api: ClusterApi,
  projectId: string,
  dictionaryId: string,
  formData: FormData,
) {
  const submission = parseWithZod(formData, { schema: DictionaryFormSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    const saved = await updateDictionary(api, projectId, dictionaryId, inputOf(submission.value))
    return redirectWithToast(dictionaryUrl(projectId, saved.uuid ?? dictionaryId), {
      title: `Dictionary ${saved.name} saved`,
      type: 'success',
    })
  } catch (error) {
    return replyFromCluster(submission, error, { rename: DICTIONARY_FIELDS })
  }
}
