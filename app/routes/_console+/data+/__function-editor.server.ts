import { parseWithZod } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import type { ClusterApi } from '~/api/client.server'
import { createFunction, functionBody, getFunction, updateFunction, type SqlFunction } from '~/api/functions.server'
import { replyFromCluster } from '~/api/policies.server'
import { listProjects } from '~/api/projects.server'
import { FUNCTION_PLACES, functionEditForm, FunctionFormSchema, functionFormSchema } from '~/schemas/function'
import { parseEdit, saveEdit } from '~/services/edit-save.server'
import { redirectWithToast } from '~/utils/toast.server'
import { functionUrl } from './__function-url'
import { isConsoleProject } from '~/utils/console-store'

/** Where the cluster's function fields show on the form (a bad expression comes back on `sql`). */
export const FUNCTION_FIELDS: Record<string, string> = { name: 'name', description: 'description', sql: 'sql' }

/** The create form's data: every project, and `?project=` preselected when it is one. Throws ClusterError. */
export async function loadFunctionEditor(api: ClusterApi, url: URL) {
  // not the console's own store (decision 105)
  const projects = (await listProjects(api))
    .filter((project) => !isConsoleProject(project))
    .map((project) => ({ uuid: project.uuid, name: project.name }))
  const wanted = url.searchParams.get('project')
  return { projects, project: projects.some((project) => project.uuid === wanted) ? wanted! : '' }
}

/**
 * Creates the function (the cluster checks the expression); redirects to its page with a toast.
 * Validation and the cluster's 400s come back on the fields with everything typed kept.
 */
export async function createFunctionAction(api: ClusterApi, formData: FormData) {
  const submission = parseWithZod(formData, { schema: FunctionFormSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const { project, ...fn } = submission.value
  try {
    const created = await createFunction(api, project, fn)
    return redirectWithToast(functionUrl(project, created.uuid ?? created.name), {
      title: `Function ${created.name} created`,
      type: 'success',
    })
  } catch (error) {
    return replyFromCluster(submission, error, { rename: FUNCTION_FIELDS })
  }
}

/** The edit form's values for a stored function. */
export type FunctionFormValues = { project: string; name: string; description: string; sql: string; original?: string }

const str = (value: unknown) => (value === undefined || value === null ? '' : String(value))

/**
 * The edit form's values: the rendered values, and the same as `original` (JSON), so a save writes
 * only the fields the operator changed onto the stored function (decisions 072 and 073).
 */
export function functionEditValues(projectId: string, fn: SqlFunction): FunctionFormValues {
  const rendered = { project: projectId, name: fn.name, description: str(fn.description), sql: str(fn.sql) }
  return { ...rendered, original: JSON.stringify(rendered) }
}

/**
 * Saves the function: the stored function with only the fields the operator changed written onto it
 * (an unchanged SQL stays byte for byte, decision 073); redirects back to its page with a toast.
 */
export async function updateFunctionAction(api: ClusterApi, projectId: string, functionId: string, formData: FormData) {
  // the same rule as the browser's check (decision 103)
  const { kept, submission } = parseEdit(formData, functionEditForm, undefined, { strict: functionFormSchema() })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  return saveEdit(api, submission, {
    formData,
    kept,
    // no silent lost update (decision 097)
    read: () => getFunction(api, projectId, functionId),
    rendered: (stored) => functionEditValues(projectId, stored),
    places: FUNCTION_PLACES,
    labels: { name: 'Function name', description: 'Description', sql: 'SQL' },
    multiline: ['description', 'sql'],
    onto: (stored) => ({
      name: stored.name,
      ...(stored.description !== undefined ? { description: stored.description } : {}),
      sql: stored.sql,
    }),
    body: ({ project: _project, ...fn }) => functionBody(fn),
    write: (body) => updateFunction(api, projectId, functionId, body),
    done: (saved) =>
      redirectWithToast(functionUrl(projectId, saved.uuid ?? functionId), {
        title: `Function ${saved.name} saved`,
        type: 'success',
      }),
    rename: FUNCTION_FIELDS,
  })
}
