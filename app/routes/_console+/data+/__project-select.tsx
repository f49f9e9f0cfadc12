import type { FieldMetadata } from '@conform-to/react'
import { Link } from '@remix-run/react'
import { ProjectField } from '~/components/forms/project-field'
import { NEW_PROJECT } from '~/schemas/table-values'

/** The project picker: every project, and "New project…" which asks for a name in another field. */
export function ProjectSelect({
  meta,
  projects,
}: {
  meta: FieldMetadata<string | undefined, Record<string, unknown>, string[]>
  projects: { uuid: string; name: string }[]
}) {
  return (
    <ProjectField
      meta={meta}
      projects={projects}
      help={
        <Link
          to={`/data/tables?manage-project=${meta.value && meta.value !== NEW_PROJECT ? encodeURIComponent(meta.value) : 'new'}`}
        >
          {meta.value && meta.value !== NEW_PROJECT
            ? 'See what this project holds, rename, describe or delete it'
            : 'Create, rename, describe or delete projects'}
        </Link>
      }
      moreOptions={[{ value: NEW_PROJECT, label: 'New project…' }]}
    />
  )
}
