import type { SubmissionResult } from '@conform-to/react'
import { getSelectProps } from '@conform-to/react'
import { Text } from '@chakra-ui/react'
import { Link as ChakraLink } from '~/components/ui/link'
import { Link } from '@remix-run/react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { Field, TextareaField } from '~/components/forms/field'
import { describedBy, FieldShell, helpIdOf } from '~/components/forms/field-shell'
import { FormCard } from '~/components/forms/form-card'
import { SelectField } from '~/components/forms/select-field'
import { useSchemaForm } from '~/components/forms/use-schema-form'
import {
  DEFAULT_LIFETIME_SECONDS,
  DICTIONARY_FORMATS,
  DICTIONARY_LAYOUTS,
  DictionaryFormSchema,
} from '~/schemas/dictionary'
import { FormSelect } from '~/components/forms/form-select'
import { CodeField } from '~/components/forms/code-field'

export type DictionaryFormValues = {
  project?: string
  name?: string
  description?: string
  schemaDefinition?: string
  primaryKey?: string
  lifetimeSeconds?: string
  loadLevel?: string
  format?: string
  layout?: string
  file?: string
}

/** The create form's defaults: ?project= when it is one, the recommended lifetime, CSV with names, hashed. */
export function newDictionaryDefaults(project: string): DictionaryFormValues {
  return {
    project,
    lifetimeSeconds: String(DEFAULT_LIFETIME_SECONDS),
    format: 'CSVWithNames',
    layout: 'complex_key_hashed',
  }
}

/**
 * The dictionary form (create and edit): project (fixed once it exists), name, description, schema
 * definition and primary key as JSON, lifetime, load level, format, layout and the project's file.
 * Without scripts the file list shows every project's files (the server checks the pair); with
 * them only the chosen project's.
 */
export function DictionaryEditor({
  projects,
  files,
  defaultValue,
  fixedProject,
  lastResult,
  submitLabel,
  cancelTo,
  deniedReason,
}: {
  projects: { uuid: string; name: string }[]
  files: { projectId: string; name: string }[]
  defaultValue: DictionaryFormValues
  fixedProject?: { uuid: string; name: string }
  lastResult?: SubmissionResult<string[]>
  submitLabel: string
  cancelTo: string
  /** Why the user may not save (`whyNot` in the loader): the submit shows disabled with it. */
  deniedReason?: string | null
}) {
  const isHydrated = useHydrated()
  const [form, fields] = useSchemaForm(DictionaryFormSchema, { id: 'dictionary-editor', lastResult, defaultValue })
  const chosenProject = fixedProject?.uuid ?? fields.project.value
  const projectName = new Map(projects.map((project) => [project.uuid, project.name]))
  const shownFiles =
    fixedProject || (isHydrated && chosenProject) ? files.filter((file) => file.projectId === chosenProject) : files
  const isGrouped = !fixedProject && !(isHydrated && chosenProject)
  const fileSelect = getSelectProps(fields.file)
  const fileHelp = (
    <>
      A file of the dictionary’s project.{' '}
      <ChakraLink asChild color="link">
        <Link to={`/data/files/new-file${chosenProject ? `?project=${chosenProject}` : ''}`}>Upload a file</Link>
      </ChakraLink>
    </>
  )

  return (
    <FormCard
      deniedReason={deniedReason}
      form={form}
      submit={{ label: submitLabel, name: 'intent', value: 'save' }}
      cancelTo={cancelTo}
    >
      {fixedProject ? (
        <>
          <input type="hidden" name={fields.project.name} value={fixedProject.uuid} />
          <Text fontSize="sm" mb="3">
            Project: <strong>{fixedProject.name}</strong>
          </Text>
        </>
      ) : (
        <SelectField
          meta={fields.project}
          label="Project"
          placeholder="Select a project"
          options={projects.map((project) => ({ value: project.uuid, label: project.name }))}
        />
      )}
      <Field
        meta={fields.name}
        label="Dictionary name"
        help="A letter first, then letters, digits and underscores."
        inputProps={{ autoComplete: 'off' }}
      />
      <TextareaField meta={fields.description} label="Description" rows={2} />
      <FieldShell meta={fields.file} label="File" help={fileHelp}>
        <FormSelect
          {...fileSelect}
          key={fileSelect.key}
          aria-describedby={describedBy(fileSelect['aria-describedby'], helpIdOf(fields.file, fileHelp))}
          isInvalid={Boolean(fields.file.errors?.length)}
        >
          <option value="">Select a file</option>
          {shownFiles.map((file) => (
            <option key={`${file.projectId}/${file.name}`} value={file.name}>
              {isGrouped ? `${file.name} (${projectName.get(file.projectId) ?? file.projectId})` : file.name}
            </option>
          ))}
        </FormSelect>
      </FieldShell>
      <SelectField
        meta={fields.format}
        label="Format"
        options={DICTIONARY_FORMATS.map((format) => ({ value: format, label: format }))}
      />
      <SelectField
        meta={fields.layout}
        label="Layout"
        options={DICTIONARY_LAYOUTS.map((layout) => ({ value: layout, label: layout }))}
      />
      <CodeField meta={fields.schemaDefinition} label="Schema definition (JSON)" rows={5} language="json" />
      <Text fontSize="xs" color="fg.muted" mt="-3" mb="4">
        The file’s columns in order, e.g.{' '}
        {'[{"name": "id", "datatype": {"type": "uint64"}}, {"name": "country", "datatype": {"type": "string"}}]'} or{' '}
        {'{"id": "uint64", "country": "string"}'}.
      </Text>
      <Field
        meta={fields.primaryKey}
        label="Primary key (JSON)"
        help='Column names, e.g. ["id"].'
        inputProps={{ fontFamily: 'mono', autoComplete: 'off' }}
      />
      <Field
        meta={fields.lifetimeSeconds}
        label="Lifetime (seconds)"
        help="How often the file is reloaded; 5 seconds recommended."
        inputProps={{ inputMode: 'numeric' }}
      />
      <Field
        meta={fields.loadLevel}
        label="Load level"
        help="Leave empty for the cluster’s default."
        inputProps={{ autoComplete: 'off' }}
      />
    </FormCard>
  )
}
