import { GuardedLink } from '~/components/layout/denied'
import type { SubmissionResult } from '@conform-to/react'
import { Text } from '~/components/ui/box'
import { HStack, Stack } from '~/components/ui/stack'
import { Button } from '~/components/ui/button'
import { Link } from '@remix-run/react'
import { ConfirmPanel } from '~/components/forms/confirm-panel'
import { Field } from '~/components/forms/field'
import { FormCard } from '~/components/forms/form-card'
import { useLazySchemaForm, type FormConstraint } from '~/components/forms/use-lazy-schema-form'
import { DetailList } from '~/components/layout/detail-list'
import { FocusHeading } from '~/components/layout/focus-heading'
import { InlineAlert } from '~/components/layout/inline-alert'
import { formatBytes, formatNumber } from '~/utils/format-number'
import type { ProjectContents } from './__project-manage.server'
import { tableUrl } from './__table-url'
import { CreateLink } from '~/components/layout/create-link'
import { CONSOLE_PROJECT_DELETE_NOTE, CONSOLE_PROJECT_NOTE, isConsoleProject } from '~/utils/console-store'

type Step =
  | { kind: 'new'; denied: string | null; constraint: FormConstraint }
  | { kind: 'missing' }
  | {
      kind: 'manage' | 'delete'
      project: ProjectContents
      denied: { change: string | null; remove: string | null }
      constraint: FormConstraint
    }
  | null

// The project form's schema comes after hydration (decision 077): zod stays out of the list's first load.
const loadProjectFormSchema = () => import('~/schemas/table').then((module) => module.ProjectFormSchema)

type Replies = { projectResult?: SubmissionResult<string[]>; deleteProjectResult?: SubmissionResult<string[]> }

/** The project step opened on the table list: new, manage (contents, rename, describe) or delete. */
export function ProjectStep({ step, replies }: { step: Step; replies: Replies }) {
  if (!step) return null
  if (step.kind === 'missing') {
    return (
      <InlineAlert title="No such project">
        The project does not exist (any more). <Link to="/data/tables">Back to the list</Link>
      </InlineAlert>
    )
  }
  if (step.kind === 'new') {
    return (
      <Stack as="section" aria-labelledby="project-step-heading" gap="3" maxW="2xl">
        <FocusHeading id="project-step-heading" level={2}>
          New project
        </FocusHeading>
        <ProjectForm
          intent="create-project"
          submitLabel="Create project"
          constraint={step.constraint}
          lastResult={replies.projectResult}
          deniedReason={step.denied}
        />
      </Stack>
    )
  }
  const { project, denied } = step
  if (step.kind === 'delete') {
    const isEmpty = !project.tables.length && !project.functions.length && !project.dictionaries?.length
    return (
      <ConfirmPanel
        id="delete-project"
        title={`Delete project ${project.name}?`}
        intent="delete-project"
        stepParam="delete-project"
        hiddenFields={{ projectId: project.uuid }}
        confirmLabel="Delete project"
        deniedReason={denied.remove}
        cancelTo={`/data/tables?manage-project=${project.uuid}`}
        force={isEmpty ? undefined : { lastResult: replies.deleteProjectResult }}
      >
        {isEmpty
          ? 'The project is empty: only its name goes.'
          : `Everything in it goes with it: ${contentsLine(project)}. This cannot be undone.`}
        {isConsoleProject(project) ? ` ${CONSOLE_PROJECT_DELETE_NOTE}` : null}
      </ConfirmPanel>
    )
  }
  return (
    <Stack as="section" aria-labelledby="project-step-heading" gap="3" bg="bg" borderWidth="1px" rounded="md" p="4">
      <HStack justify="space-between" wrap="wrap">
        <FocusHeading id="project-step-heading" level={2}>
          Project {project.name}
        </FocusHeading>
        <HStack wrap="wrap">
          <CreateLink to={`/data/new-table?project=${project.uuid}`} variant="outline">
            New table in {project.name}
          </CreateLink>
          <GuardedLink to={`/data/tables?delete-project=${project.uuid}`} reason={denied.remove} colorPalette="red">
            Delete project…
          </GuardedLink>
          <Button asChild size="sm" variant="ghost">
            <Link to="/data/tables">Close</Link>
          </Button>
        </HStack>
      </HStack>
      {isConsoleProject(project) ? (
        <Text fontSize="sm" color="fg.muted">
          {CONSOLE_PROJECT_NOTE}
        </Text>
      ) : null}
      <ProjectContentsList project={project} />
      <ProjectForm
        intent="update-project"
        submitLabel="Save project"
        projectId={project.uuid}
        defaults={{ name: project.name, description: project.description }}
        constraint={step.constraint}
        lastResult={replies.projectResult}
        deniedReason={denied.change}
      />
    </Stack>
  )
}

function contentsLine(project: ProjectContents): string {
  const tableNames = project.tables.map((table) => table.name).join(', ')
  const parts = [
    `${project.tables.length} ${project.tables.length === 1 ? 'table' : 'tables'}${tableNames ? ` (${tableNames})` : ''}`,
    `${project.functions.length} ${project.functions.length === 1 ? 'function' : 'functions'}`,
    project.dictionaries
      ? `${project.dictionaries.length} ${project.dictionaries.length === 1 ? 'dictionary' : 'dictionaries'}`
      : 'dictionaries not known',
  ]
  if (project.stats?.total_rows !== undefined) {
    parts.push(
      `${formatNumber(project.stats.total_rows)} ` +
        `rows${project.stats.compressed_data_size !== undefined ? `, ${formatBytes(project.stats.compressed_data_size)} stored` : ''}`,
    )
  }
  return parts.join('; ')
}

/** What a project holds, each table linking to its page. */
function ProjectContentsList({ project }: { project: ProjectContents }) {
  return (
    <DetailList
      label={`Contents of project ${project.name}`}
      entries={[
        ['Description', project.description || '—'],
        [
          'Tables',
          project.tables.length ? (
            <HStack key="t" wrap="wrap" gap="2">
              {project.tables.map((table) => (
                <Link key={table.uuid} to={tableUrl(table.uuid, project.uuid)}>
                  {table.name}
                </Link>
              ))}
            </HStack>
          ) : (
            'None'
          ),
        ],
        ['Functions', project.functions.length ? project.functions.join(', ') : 'None'],
        [
          'Dictionaries',
          project.dictionaries === null
            ? 'Could not be listed'
            : project.dictionaries.length
              ? project.dictionaries.join(', ')
              : 'None',
        ],
        ['Rows', project.stats?.total_rows !== undefined ? formatNumber(project.stats.total_rows) : '—'],
        [
          'Stored',
          project.stats?.compressed_data_size !== undefined ? formatBytes(project.stats.compressed_data_size) : '—',
        ],
      ]}
    />
  )
}

function ProjectForm({
  intent,
  submitLabel,
  projectId,
  defaults,
  constraint,
  lastResult,
  deniedReason,
}: {
  intent: string
  submitLabel: string
  projectId?: string
  defaults?: { name: string; description: string }
  /** `getZodConstraint(ProjectFormSchema)` from the loader. */
  constraint: FormConstraint
  lastResult?: SubmissionResult<string[]>
  deniedReason?: string | null
}) {
  const [form, fields] = useLazySchemaForm(loadProjectFormSchema, {
    id: `project-${intent}`,
    constraint,
    lastResult,
    defaultValue: defaults,
  })
  return (
    <FormCard form={form} submit={{ label: submitLabel }} cancelTo="/data/tables" deniedReason={deniedReason}>
      <input type="hidden" name="intent" value={intent} />
      {projectId ? <input type="hidden" name="projectId" value={projectId} /> : null}
      <Field
        meta={fields.name}
        label="Project name"
        help="A letter first, then letters, digits and underscores."
        inputProps={{ autoComplete: 'off' }}
      />
      <Field meta={fields.description} label="Project description" />
      {intent === 'update-project' ? (
        <Text fontSize="xs" color="fg.muted" mb="2">
          Renaming a project changes the name queries use for its tables (project.table).
        </Text>
      ) : null}
    </FormCard>
  )
}
