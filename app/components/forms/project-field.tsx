import type { FieldMetadata } from '@conform-to/react'
import { Text } from '~/components/ui/box'
import type { ReactNode } from 'react'
import { SelectField, type SelectOption } from './select-field'

type ProjectChoice = { uuid: string; name: string }

/**
 * The project a form's object belongs to: a select of the org's projects ("Select a project"
 * first), or, when the page fixes it (an edit: an object stays in its project), its name with the
 * value in a hidden input of the same name, so the form posts the same fields either way.
 */
export function ProjectField({
  meta,
  projects,
  fixed,
  help,
  moreOptions = [],
}: {
  meta: FieldMetadata<string | undefined, Record<string, unknown>, string[]>
  projects: readonly ProjectChoice[]
  fixed?: ProjectChoice | null
  help?: ReactNode
  /** Options after the projects ("New project…"). */
  moreOptions?: SelectOption[]
}) {
  if (fixed)
    return (
      <>
        <input type="hidden" name={meta.name} value={fixed.uuid} />
        <Text fontSize="sm" mb="3">
          Project: <strong>{fixed.name}</strong>
        </Text>
      </>
    )
  return (
    <SelectField
      meta={meta}
      label="Project"
      placeholder="Select a project"
      help={help}
      options={[...projects.map((project) => ({ value: project.uuid, label: project.name })), ...moreOptions]}
    />
  )
}
