import { getInputProps, type SubmissionResult } from '@conform-to/react'
import { withBase } from '~/utils/base-path'
import { chakra } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { useEffect, useRef, useState } from 'react'
import { Field } from '~/components/forms/field'
import { FieldShell } from '~/components/forms/field-shell'
import { FormCard } from '~/components/forms/form-card'
import { ProjectField } from '~/components/forms/project-field'
import { FILE_EXTENSIONS, MAX_UPLOAD_BYTES } from '~/schemas/file-values'
import type { NewFileFormSchema } from '~/schemas/file'
import { useLazySchemaForm, type FormConstraint } from '~/components/forms/use-lazy-schema-form'
import { FILE_UPLOAD_URL } from './__file-url'

// The schemas come after hydration (decision 077): zod stays out of the file pages' first load.
const loadFileSchemas = () => import('~/schemas/file')

type Progress = { loaded: number; total: number } | null

/**
 * The upload form (new file, or with `replace` the new contents of one). A plain multipart POST
 * to the page without scripts; with them, once the browser's check passes, the same form data goes
 * by XHR to the upload resource route so a progress bar can follow the bytes, and the page then
 * goes where the server says (or shows its field errors, the chosen file still in its input).
 */
export function FileUploadForm({
  projects,
  project,
  replace,
  constraint,
  lastResult,
  submitLabel,
  cancelTo,
  deniedReason,
}: {
  projects?: { uuid: string; name: string }[]
  project?: string
  replace?: { projectId: string; name: string }
  /** `getZodConstraint` of the form's schema (new or replace) from the loader. */
  constraint: FormConstraint
  lastResult?: SubmissionResult<string[]>
  submitLabel: string
  cancelTo: string
  /** Why the user may not save (`whyNot` in the loader): the submit shows disabled with it. */
  deniedReason?: string | null
}) {
  const [xhrResult, setXhrResult] = useState<SubmissionResult<string[]> | undefined>(undefined)
  const [progress, setProgress] = useState<Progress>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const request = useRef<XMLHttpRequest | null>(null)
  useEffect(() => () => request.current?.abort(), [])

  const [form, fields] = useLazySchemaForm(loadFileSchemas, {
    schemaOf: (schemas) =>
      replace ? (schemas.ReplaceFileFormSchema as unknown as typeof NewFileFormSchema) : schemas.NewFileFormSchema,
    id: replace ? 'file-replace' : 'file-new',
    lastResult: xhrResult ?? lastResult,
    defaultValue: { project },
    constraint,
    onSubmit(event, { formData }) {
      if (typeof XMLHttpRequest === 'undefined') return
      event.preventDefault()
      const xhr = new XMLHttpRequest()
      request.current = xhr
      setFailure(null)
      setProgress({ loaded: 0, total: (formData.get('file') as File | null)?.size ?? 0 })
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
          // A full load: the server's flash cookie (the toast) is read by the next page's render.
          window.location.assign(withBase(answer.redirectTo))
          return
        }
        setProgress(null)
        if (answer.result) setXhrResult(answer.result)
        else setFailure(answer.message ?? 'Error while file uploading')
      }
      xhr.onerror = () => {
        setProgress(null)
        setFailure('Error while file uploading')
      }
      xhr.open(
        'POST',
        withBase(
          replace
            ? `${FILE_UPLOAD_URL}?${new URLSearchParams({ project: replace.projectId, name: replace.name })}`
            : FILE_UPLOAD_URL,
        ),
      )
      xhr.setRequestHeader('Accept', 'application/json')
      xhr.send(formData)
    },
  })
  const fileProps = getInputProps(fields.file, { type: 'file' })
  const percent =
    progress && progress.total > 0 ? Math.min(100, Math.round((progress.loaded / progress.total) * 100)) : 0

  return (
    <FormCard
      deniedReason={deniedReason}
      form={form}
      submit={{ label: submitLabel }}
      cancelTo={cancelTo}
      encType="multipart/form-data"
    >
      {replace ? null : (
        <>
          <ProjectField meta={fields.project} projects={projects ?? []} />
          <Field
            meta={fields.name}
            label="File name"
            help="Leave empty to keep the uploaded file's own name. Dictionaries refer to the file by this name."
            inputProps={{ autoComplete: 'off' }}
          />
        </>
      )}
      <FieldShell
        meta={fields.file}
        label={replace ? 'New contents' : 'File'}
        help={`${FILE_EXTENSIONS.join(', ')}; at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB. The content must match the extension.`}
      >
        <chakra.input
          {...fileProps}
          key={fileProps.key}
          accept={FILE_EXTENSIONS.join(',')}
          aria-describedby={[fileProps['aria-describedby'], `${fields.file.id}-help`].filter(Boolean).join(' ')}
          display="block"
          fontSize="sm"
        />
      </FieldShell>
      {progress ? (
        <Box mb="4" role="status" aria-live="polite">
          <chakra.label htmlFor="upload-progress" fontSize="sm" display="block" mb="1">
            Uploading… {percent}% ({(progress.loaded / 1024 / 1024).toFixed(1)} of{' '}
            {(progress.total / 1024 / 1024).toFixed(1)} MB)
          </chakra.label>
          <chakra.progress id="upload-progress" max={100} value={percent} w="full" h="2" />
        </Box>
      ) : null}
      {failure ? (
        <Text role="alert" color="fg.error" fontSize="sm" mb="3">
          {failure}
        </Text>
      ) : null}
    </FormCard>
  )
}
