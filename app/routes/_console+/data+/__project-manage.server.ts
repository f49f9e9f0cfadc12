import { whyNot, whyNotEach } from '~/api/access.server'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import type { ClusterApi } from '~/api/client.server'
import { listFunctions } from '~/api/functions.server'
import { loadFromCluster, nullOnMissing, replyFromCluster, settle } from '~/api/policies.server'
import {
  createProject,
  deleteProject,
  getProject,
  getProjectStats,
  listProjectDictionaryNames,
  updateProject,
  type ProjectStats,
} from '~/api/projects.server'
import { listTables } from '~/api/tables.server'
import { ForceConfirmSchema } from '~/schemas/confirm'
import { ProjectFormSchema } from '~/schemas/table'
import { redirectWithToast } from '~/utils/toast.server'

/*
 * Projects, managed from the table list (issue 7): `?manage-project=new` (create),
 * `?manage-project=<id>` (what is inside, rename, describe) and `?delete-project=<id>` (delete,
 * showing what goes with it). Every step is a URL on /data/tables, the same with and without scripts.
 */

export const CREATE_PROJECT_INTENT = 'create-project'
export const UPDATE_PROJECT_INTENT = 'update-project'
export const DELETE_PROJECT_INTENT = 'delete-project'

export type ProjectContents = {
  uuid: string
  name: string
  description: string
  tables: { uuid: string; name: string }[]
  functions: string[]
  /** null when the dictionaries could not be listed. */
  dictionaries: string[] | null
  stats: ProjectStats | null
}

/** What a project holds: its tables, functions, dictionaries and stored figures. Null when there is no such project. */
export async function loadProjectContents(api: ClusterApi, projectId: string): Promise<ProjectContents | null> {
  const project = await loadFromCluster(() => nullOnMissing(() => getProject(api, projectId)))
  if (!project) return null
  const [tables, functions, dictionaries, stats] = await Promise.all([
    loadFromCluster(() => listTables(api, project.uuid)),
    settle(() => listFunctions(api, project.uuid)),
    settle(() => listProjectDictionaryNames(api, project.uuid)),
    settle(() => getProjectStats(api, project.uuid)),
  ])
  return {
    uuid: project.uuid,
    name: project.name,
    description: project.description ?? '',
    tables: tables.map((table) => ({ uuid: table.uuid, name: table.name })),
    functions: (functions.value ?? []).map((fn) => fn.name).sort(),
    dictionaries: dictionaries.value,
    stats: stats.value,
  }
}

/** True when deleting the project loses nothing but its name. */
export function isEmptyProject(project: ProjectContents): boolean {
  return !project.tables.length && !project.functions.length && !project.dictionaries?.length
}

/** The project steps the list page shows, read from its URL. */
export async function loadProjectStep(api: ClusterApi, url: URL) {
  const manage = url.searchParams.get('manage-project')
  const remove = url.searchParams.get('delete-project')
  // The project form's HTML constraints: its schema loads after hydration (decision 077).
  const constraint = getZodConstraint(ProjectFormSchema)
  if (manage === 'new') return { kind: 'new' as const, denied: await whyNot(api, 'add_project'), constraint }
  const id = remove ?? manage
  if (!id) return null
  const contents = await loadProjectContents(api, id)
  if (!contents) return { kind: 'missing' as const }
  const denied = await whyNotEach(api, { change: 'change_project', remove: 'delete_project' }, { project: contents })
  return { kind: remove ? ('delete' as const) : ('manage' as const), project: contents, denied, constraint }
}

/** Creates, updates or deletes a project; null when the intent is not a project's. */
export async function projectAction(api: ClusterApi, formData: FormData) {
  const intent = formData.get('intent')
  if (intent === CREATE_PROJECT_INTENT) {
    const submission = parseWithZod(formData, { schema: ProjectFormSchema })
    if (submission.status !== 'success') return data({ projectResult: submission.reply() }, { status: 400 })
    try {
      const project = await createProject(api, {
        name: submission.value.name,
        description: submission.value.description,
      })
      return redirectWithToast(`/data/tables?manage-project=${project.uuid}`, {
        title: `Project ${project.name} created`,
        type: 'success',
      })
    } catch (error) {
      const reply = replyFromCluster(submission, error, { rename: { name: 'name', description: 'description' } })
      return data({ projectResult: reply.data.result }, { status: 400 })
    }
  }
  if (intent === UPDATE_PROJECT_INTENT) {
    const projectId = String(formData.get('projectId') ?? '')
    const submission = parseWithZod(formData, { schema: ProjectFormSchema })
    if (submission.status !== 'success') return data({ projectResult: submission.reply() }, { status: 400 })
    try {
      const project = await updateProject(api, projectId, {
        name: submission.value.name,
        description: submission.value.description ?? '',
      })
      return redirectWithToast(`/data/tables?manage-project=${project.uuid}`, {
        title: `Project ${project.name} saved`,
        type: 'success',
      })
    } catch (error) {
      const reply = replyFromCluster(submission, error, { rename: { name: 'name', description: 'description' } })
      return data({ projectResult: reply.data.result }, { status: 400 })
    }
  }
  if (intent === DELETE_PROJECT_INTENT) {
    const projectId = String(formData.get('projectId') ?? '')
    const project = await loadProjectContents(api, projectId)
    if (!project) throw data({ message: '404 Error: Not Found.' }, { status: 404 })
    // Typed FORCE only when something goes with the project.
    if (!isEmptyProject(project)) {
      const confirmation = parseWithZod(formData, { schema: ForceConfirmSchema })
      if (confirmation.status !== 'success') return data({ deleteProjectResult: confirmation.reply() }, { status: 400 })
    }
    await loadFromCluster(() => deleteProject(api, project.uuid))
    return redirectWithToast('/data/tables', { title: `Project ${project.name} deleted`, type: 'success' })
  }
  return null
}
