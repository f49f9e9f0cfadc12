import type { SubmissionResult } from '@conform-to/react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { Field, TextareaField } from '~/components/forms/field'
import { FormCard } from '~/components/forms/form-card'
import { useLazySchemaForm, type FormConstraint } from '~/components/forms/use-lazy-schema-form'
import { NEW_PROJECT } from '~/schemas/table-values'
import { ProjectSelect } from './__project-select'

// Fetched after hydration; the HTML constraints come from the loader (decision 032).
const loadTableFormSchema = () => import('~/schemas/table').then((module) => module.TableFormSchema)

/**
 * The table form (create; edit will share it): project (or a new one), name, description, max age,
 * sort keys. Validated in the browser, once loaded, by the same schema the action uses; `lastResult` is the
 * action's reply, so field errors and everything typed come back after a failed submission.
 */
export function TableEditor({
  projects,
  project,
  constraint,
  lastResult,
  submitLabel,
  cancelTo,
  checkTo,
}: {
  projects: { uuid: string; name: string }[]
  /** The project to preselect (or NEW_PROJECT). */
  project: string
  /** `getZodConstraint(TableFormSchema)`, from the loader. */
  constraint: FormConstraint
  lastResult?: SubmissionResult<string[]>
  submitLabel: string
  cancelTo: string
  /** Where to check whether a create that timed out was applied (the action's `checkTo`). */
  checkTo?: { to: string; label: string } | null
}) {
  const isHydrated = useHydrated()
  const [form, fields] = useLazySchemaForm(loadTableFormSchema, {
    id: 'table-editor',
    constraint,
    lastResult,
    defaultValue: { project },
  })
  // Without scripts the name field is always there; with them it shows once "New project…" is picked.
  const isNewProjectShown = !isHydrated || fields.project.value === NEW_PROJECT

  return (
    <FormCard form={form} submit={{ label: submitLabel }} cancelTo={cancelTo} checkTo={checkTo}>
      <ProjectSelect meta={fields.project} projects={projects} />
      {isNewProjectShown ? (
        <Field
          meta={fields.newProjectName}
          label="New project name"
          help={isHydrated ? undefined : 'Only used when “New project…” is selected above.'}
        />
      ) : null}
      <Field
        meta={fields.name}
        label="Table name"
        help="A letter first, then letters, digits and underscores."
        inputProps={{ autoComplete: 'off' }}
      />
      <TextareaField meta={fields.description} label="Description" rows={2} />
      <Field
        meta={fields.maxAgeDays}
        label="Max age (days)"
        help="Data older than this is removed; 0 keeps it forever."
        inputProps={{ inputMode: 'numeric' }}
      />
      <TextareaField meta={fields.sortKeys} label="Sort keys (JSON)" rows={2} />
    </FormCard>
  )
}
