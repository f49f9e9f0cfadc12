import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import type { ClusterApi } from '~/api/client.server'
import { replyFromCluster } from '~/api/policies.server'
import { createProject, listProjects, type Project } from '~/api/projects.server'
import { createTable } from '~/api/tables.server'
import { NEW_PROJECT, parseSortKeys, TableFormSchema } from '~/schemas/table'
import { redirectWithToast } from '~/utils/toast.server'
import { tableUrl } from './__table-url'
import { isConsoleProject } from '~/utils/console-store'

/** Where the cluster's table fields (as mapFieldErrors flattens them) show on the table form. */
const TABLE_FIELDS: Record<string, string> = {
  name: 'name',
  description: 'description',
  'settings.age.max_age_days': 'maxAgeDays',
  'settings.age': 'maxAgeDays',
  'settings.sort_keys': 'sortKeys',
}

/** Where the cluster's project fields show when the form creates a project. */
const PROJECT_FIELDS: Record<string, string> = { name: 'newProjectName' }

/**
 * The table form's data: every project (names and ids) and the one to preselect: `?project=` when
 * it exists, none when there are projects to choose from, "New project…" when there are none; and
 * the form's HTML constraints (decision 032). Throws ClusterError.
 */
export async function loadTableEditor(api: ClusterApi, url: URL) {
  // not the console's own store (decision 105)
  const projects = (await listProjects(api)).filter((project) => !isConsoleProject(project))
  const wanted = url.searchParams.get('project')
  return {
    projects: projects.map((project) => ({ uuid: project.uuid, name: project.name })),
    project: projects.some((project) => project.uuid === wanted) ? wanted! : projects.length ? '' : NEW_PROJECT,
    constraint: getZodConstraint(TableFormSchema),
  }
}

/**
 * The create action: validates the form, creates the project first when "New project…" was
 * picked, then the table; redirects to the new table with a toast. Validation and the cluster's
 * 400s come back on the form's fields with everything typed kept; when the project was created
 * but the table was not, the form says so and selects the new project (sending again does not
 * create it twice).
 */
export async function createTableAction(api: ClusterApi, formData: FormData) {
  const submission = parseWithZod(formData, { schema: TableFormSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const { project: projectId, newProjectName, sortKeys, ...fields } = submission.value
  const table = { ...fields, sortKeys: sortKeys ? parseSortKeys(sortKeys) : undefined }

  let project: Pick<Project, 'uuid' | 'name'>
  if (projectId === NEW_PROJECT) {
    try {
      project = await createProject(api, { name: newProjectName! })
    } catch (error) {
      return replyFromCluster(submission, error, { rename: PROJECT_FIELDS })
    }
  } else {
    project = { uuid: projectId, name: '' }
  }

  try {
    const created = await createTable(api, project.uuid, table)
    return redirectWithToast(tableUrl(created.uuid, project.uuid), {
      title: `Table ${created.name} created`,
      type: 'success',
    })
  } catch (error) {
    // a create that timed out may still be applied: the reply links the list to check it (decision 098)
    const checkTo = { to: '/data/tables', label: 'Check the tables' }
    if (projectId !== NEW_PROJECT) return replyFromCluster(submission, error, { rename: TABLE_FIELDS, checkTo })
    submission.payload.project = project.uuid
    delete submission.payload.newProjectName
    return replyFromCluster(submission, error, {
      rename: TABLE_FIELDS,
      checkTo,
      notes: [`Project ${project.name} was created; the table was not.`],
    })
  }
}
