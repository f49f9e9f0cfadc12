import type { SubmissionResult } from '@conform-to/react'
import { originalOf } from '~/utils/edit-conflict'
import { getInputProps, getSelectProps } from '@conform-to/react'
import { chakra } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { withBase } from '~/utils/base-path'
import { DICTIONARY_CREATE_URL } from './__file-url'
import { Link as ChakraLink } from '~/components/ui/link'
import { Link } from '@remix-run/react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { Field, TextareaField } from '~/components/forms/field'
import { describedBy, FieldShell, helpIdOf } from '~/components/forms/field-shell'
import { FormCard } from '~/components/forms/form-card'
import { ProjectField } from '~/components/forms/project-field'
import { SelectField } from '~/components/forms/select-field'
import { useLazySchemaForm, type FormConstraint } from '~/components/forms/use-lazy-schema-form'
import type { DictionaryFormSchema, DictionaryNewFormSchema } from '~/schemas/dictionary'
import { DEFAULT_LIFETIME_SECONDS, DICTIONARY_FORMATS, DICTIONARY_LAYOUTS } from '~/schemas/dictionary-values'
import { FILE_EXTENSIONS, MAX_UPLOAD_BYTES } from '~/schemas/file-values'
import { FormSelect } from '~/components/forms/form-select'
import { withCurrent } from '~/schemas/lossless'
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
  /** Edit: the values the form was rendered with (JSON), so a save writes only what changed (decision 073). */
  original?: string
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
// Fetched after hydration; the HTML constraints come from the loader (decision 032).
const loadDictionarySchemas = () => import('~/schemas/dictionary')
type EitherSchema = typeof DictionaryFormSchema | typeof DictionaryNewFormSchema

export function DictionaryEditor({
  projects,
  files,
  defaultValue,
  fixedProject,
  lastResult,
  submitLabel,
  cancelTo,
  deniedReason,
  canUpload = false,
  constraint,
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
  /** New dictionary: the file may be uploaded in the same form (multipart; issue 35). */
  canUpload?: boolean
  /** `getZodConstraint` of the form's schema, from the loader (DictionaryNewFormSchema when `canUpload`). */
  constraint: FormConstraint
}) {
  const isHydrated = useHydrated()
  const upload = useUploadByXhr()
  const [form, fields] = useLazySchemaForm(loadDictionarySchemas, {
    // on edit, the fields still as stored are not checked again, as in the action (decision 072)
    schemaOf: (schemas, formData): EitherSchema =>
      canUpload ? schemas.DictionaryNewFormSchema : schemas.dictionaryEditForm.schemaOf(formData, undefined),
    id: 'dictionary-editor',
    constraint,
    lastResult: upload.result ?? lastResult,
    defaultValue,
    onSubmit: canUpload ? upload.onSubmit : undefined,
  })
  const uploadField = (fields as unknown as { upload: Parameters<typeof getInputProps>[0] }).upload
  const uploadProps = canUpload ? getInputProps(uploadField, { type: 'file' }) : null
  const uploadHelp =
    `Or upload one here: ${FILE_EXTENSIONS.join(', ')}; at ` +
    `most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB. It is stored in the project under its own name.`
  const chosenProject = fixedProject?.uuid ?? fields.project.value
  const projectName = new Map(projects.map((project) => [project.uuid, project.name]))
  const shownFiles =
    fixedProject || (isHydrated && chosenProject) ? files.filter((file) => file.projectId === chosenProject) : files
  const isGrouped = !fixedProject && !(isHydrated && chosenProject)
  // a stored file, format or layout the lists lack is shown, so an unchanged save posts it as stored
  const currentFile = fields.file.initialValue
  if (fixedProject && currentFile && !shownFiles.some((file) => file.name === currentFile))
    shownFiles.push({ projectId: fixedProject.uuid, name: currentFile })
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
      encType={canUpload ? 'multipart/form-data' : undefined}
    >
      {originalOf(lastResult, defaultValue.original) ? (
        <input type="hidden" name="original" value={originalOf(lastResult, defaultValue.original)} />
      ) : null}
      <ProjectField meta={fields.project} projects={projects} fixed={fixedProject} />
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
      {uploadProps ? (
        <FieldShell meta={uploadField as never} label="Upload a file" help={uploadHelp}>
          <chakra.input
            {...uploadProps}
            key={uploadProps.key}
            accept={FILE_EXTENSIONS.join(',')}
            aria-describedby={[uploadProps['aria-describedby'], `${uploadField.id}-help`].filter(Boolean).join(' ')}
            display="block"
            fontSize="sm"
          />
        </FieldShell>
      ) : null}
      {upload.progress ? <UploadProgress {...upload.progress} /> : null}
      {upload.failure ? (
        <Text role="alert" color="fg.error" fontSize="sm" mb="3">
          {upload.failure}
        </Text>
      ) : null}
      <SelectField
        meta={fields.format}
        label="Format"
        options={withCurrent(DICTIONARY_FORMATS, fields.format.initialValue).map((format) => ({
          value: format,
          label: format,
        }))}
      />
      <SelectField
        meta={fields.layout}
        label="Layout"
        options={withCurrent(DICTIONARY_LAYOUTS, fields.layout.initialValue).map((layout) => ({
          value: layout,
          label: layout,
        }))}
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

type Progress = { loaded: number; total: number }

/**
 * With scripts, a form carrying a chosen upload goes by XHR to the create resource route so a
 * progress bar can follow the bytes (the same action; without scripts the page's multipart post),
 * then the page goes where the server says, or shows its field errors. Without a file chosen the
 * form is submitted as usual.
 */
function useUploadByXhr() {
  const [result, setResult] = useState<SubmissionResult<string[]> | undefined>(undefined)
  const [progress, setProgress] = useState<Progress | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const request = useRef<XMLHttpRequest | null>(null)
  useEffect(() => () => request.current?.abort(), [])
  const onSubmit = (event: FormEvent<HTMLFormElement>, { formData }: { formData: FormData }) => {
    const file = formData.get('upload')
    if (typeof XMLHttpRequest === 'undefined' || !(file instanceof File) || file.size === 0) return
    event.preventDefault()
    const xhr = new XMLHttpRequest()
    request.current = xhr
    setFailure(null)
    setProgress({ loaded: 0, total: file.size })
    xhr.upload.onprogress = (progressEvent) => {
      if (progressEvent.lengthComputable) setProgress({ loaded: progressEvent.loaded, total: progressEvent.total })
    }
    xhr.onload = () => {
      // An ended session answers with the login page (the redirect was followed): go there.
      if (new URL(xhr.responseURL || window.location.href).pathname === withBase('/login')) {
        window.location.assign(xhr.responseURL)
        return
      }
      let answer: { status?: string; redirectTo?: string; result?: SubmissionResult<string[]>; message?: string } = {}
      try {
        answer = JSON.parse(xhr.responseText)
      } catch {
        answer = {}
      }
      if (answer.status === 'success' && answer.redirectTo) {
        window.location.assign(withBase(answer.redirectTo))
        return
      }
      setProgress(null)
      if (answer.result) setResult(answer.result)
      else setFailure(answer.message ?? 'Error while file uploading')
    }
    xhr.onerror = () => {
      setProgress(null)
      setFailure('Error while file uploading')
    }
    xhr.open('POST', withBase(DICTIONARY_CREATE_URL))
    xhr.setRequestHeader('Accept', 'application/json')
    xhr.send(formData)
  }
  return { result, progress, failure, onSubmit }
}

function UploadProgress({ loaded, total }: Progress) {
  const percent = total > 0 ? Math.min(100, Math.round((loaded / total) * 100)) : 0
  return (
    <Box mb="4" role="status" aria-live="polite">
      <chakra.label htmlFor="dictionary-upload-progress" fontSize="sm" display="block" mb="1">
        Uploading… {percent}% ({(loaded / 1024 / 1024).toFixed(1)} of {(total / 1024 / 1024).toFixed(1)} MB)
      </chakra.label>
      <chakra.progress id="dictionary-upload-progress" max={100} value={percent} w="full" h="2" />
    </Box>
  )
}
