import type { SubmissionResult } from '@conform-to/react'
import { originalOf } from '~/utils/edit-conflict'
import { Field, TextareaField } from '~/components/forms/field'
import { CodeField } from '~/components/forms/code-field'
import { FormCard } from '~/components/forms/form-card'
import { ProjectField } from '~/components/forms/project-field'
import { useLazySchemaForm, type FormConstraint } from '~/components/forms/use-lazy-schema-form'

// Fetched after hydration; the HTML constraints come from the loader (decision 032).
const loadFunctionSchemas = () => import('~/schemas/function')

/**
 * The function form (create and edit): project (fixed once the function exists), name,
 * description, SQL expression. `lastResult` brings back the action's errors and what was typed.
 */
export function FunctionEditor({
  projects,
  constraint,
  defaultValue,
  fixedProject,
  lastResult,
  submitLabel,
  cancelTo,
  deniedReason,
}: {
  projects: { uuid: string; name: string }[]
  /** `getZodConstraint(FunctionFormSchema)`, from the loader. */
  constraint: FormConstraint
  /** On edit `original`: the values the form was rendered with (JSON), so a save writes only what changed. */
  defaultValue: { project?: string; name?: string; description?: string; sql?: string; original?: string }
  /** On edit: the function's project, shown and sent as a hidden field. */
  fixedProject?: { uuid: string; name: string }
  lastResult?: SubmissionResult<string[]>
  submitLabel: string
  cancelTo: string
  /** Why the user may not save (`whyNot` in the loader): the submit shows disabled with it. */
  deniedReason?: string | null
}) {
  const [form, fields] = useLazySchemaForm(loadFunctionSchemas, {
    // on edit, the fields still as stored are not checked again, as in the action (decision 072)
    schemaOf: (schemas, formData) => schemas.functionEditForm.schemaOf(formData, undefined),
    id: 'function-editor',
    constraint,
    lastResult,
    defaultValue,
  })
  return (
    <FormCard
      deniedReason={deniedReason}
      form={form}
      submit={{ label: submitLabel, name: 'intent', value: 'save' }}
      cancelTo={cancelTo}
    >
      {originalOf(lastResult, defaultValue.original) ? (
        <input type="hidden" name="original" value={originalOf(lastResult, defaultValue.original)} />
      ) : null}
      <ProjectField meta={fields.project} projects={projects} fixed={fixedProject} />
      <Field
        meta={fields.name}
        label="Function name"
        help="A letter first, then letters, digits and underscores."
        inputProps={{ autoComplete: 'off' }}
      />
      <TextareaField meta={fields.description} label="Description" rows={2} />
      <CodeField
        meta={fields.sql}
        label="SQL expression"
        help="A lambda, e.g. (x, k, b) -> k*x + b. Saving defines it on the cluster, which checks it."
        rows={3}
        language="sql"
      />
    </FormCard>
  )
}
