import type { FieldMetadata } from '@conform-to/react'
import { SelectField } from '~/components/forms/select-field'
import { NEW_PROJECT } from '~/schemas/table'

/** The project picker: every project, and "New project…" which asks for a name in another field. */
export function ProjectSelect({
  meta,
  projects,
}: {
  meta: FieldMetadata<string | undefined, Record<string, unknown>, string[]>
  projects: { uuid: string; name: string }[]
}) {
  return (
    <SelectField
      meta={meta}
      label="Project"
      placeholder="Select a project"
      options={[...projects.map((project) => ({ value: project.uuid, label: project.name })), { value: NEW_PROJECT, label: 'New project…' }]}
    />
  )
}
