import { getSelectProps, type FieldMetadata } from '@conform-to/react'
import { Box, chakra, NativeSelect } from '@chakra-ui/react'
import { ErrorList } from '~/components/forms/error-list'
import { NEW_PROJECT } from '~/schemas/table'

/** The project picker: every project, and "New project…" which asks for a name in another field. */
export function ProjectSelect({
  meta,
  projects,
}: {
  meta: FieldMetadata<string | undefined, Record<string, unknown>, string[]>
  projects: { uuid: string; name: string }[]
}) {
  const props = getSelectProps(meta)
  return (
    <Box mb="4">
      <chakra.label htmlFor={meta.id} display="block" fontWeight="medium" fontSize="sm" mb="1">
        Project
      </chakra.label>
      <NativeSelect.Root>
        <NativeSelect.Field {...props} key={props.key} borderColor={meta.errors?.length ? 'border.error' : undefined}>
          <option value="">Select a project</option>
          {projects.map((project) => (
            <option key={project.uuid} value={project.uuid}>
              {project.name}
            </option>
          ))}
          <option value={NEW_PROJECT}>New project…</option>
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </Box>
  )
}
