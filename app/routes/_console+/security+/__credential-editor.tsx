import type { FieldMetadata, SubmissionResult } from '@conform-to/react'
import { originalOf } from '~/utils/edit-conflict'
import { chakra } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { Button } from '~/components/ui/button'
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { ErrorList } from '~/components/forms/error-list'
import { Field, TextareaField } from '~/components/forms/field'
import { FormCard } from '~/components/forms/form-card'
import { SelectField } from '~/components/forms/select-field'
import type { credentialFormSchema as CredentialFormSchema } from '~/schemas/credential'
type CredentialSchemas = typeof import('~/schemas/credential')
import { parseKeyFile, typeOfKeyFile } from '~/schemas/credential-values'
import type { CredentialTypeOption } from './__credential-editor.server'
import { useLazySchemaForm } from '~/components/forms/use-lazy-schema-form'

// Fetched after hydration (decision 032); the schema follows the type picked, so the form has no HTML constraints.
const loadCredentialSchemas = () => import('~/schemas/credential')

type DetailMeta = FieldMetadata<string | undefined, Record<string, unknown>, string[]>

/**
 * The credential form (create and edit): name, description, the type (from the cluster's
 * `/credentials/types/`; fixed on edit) and that type's own fields under `details.`, plus a JSON key
 * file whose values fill them. Secrets are password inputs that start empty; on edit a blank one
 * keeps the stored secret. Posts as multipart so the key file goes with it without scripts; with
 * scripts the fields follow the type as it changes and the key file fills them at once.
 */
export function CredentialEditor({
  types,
  defaultValue,
  stored = [],
  fixedType,
  lastResult,
  submitLabel,
  submitIntent,
  pickTypeIntent,
  cancelTo,
  deniedReason,
}: {
  types: CredentialTypeOption[]
  defaultValue?: {
    name?: string
    description?: string
    type?: string
    details?: Record<string, string>
    /** An edit form's rendered values (JSON, never a secret): Save writes only what changed (decision 074). */
    original?: string
  }
  /** The secrets the credential has stored (edit): their fields say so and may stay blank. */
  stored?: string[]
  /** The credential's type on edit (it cannot change). */
  fixedType?: string
  lastResult?: SubmissionResult<string[]> | null
  submitLabel: string
  submitIntent?: string
  pickTypeIntent: string
  cancelTo: string
  /** Why the user may not save (`whyNot` in the loader): the submit shows disabled with it. */
  deniedReason?: string | null
}) {
  const isHydrated = useHydrated()
  const isEdit = Boolean(fixedType)
  const fieldsOf = (key: string) => types.find((type) => type.value === key)?.fields ?? null
  const [form, fields] = useLazySchemaForm<ReturnType<typeof CredentialFormSchema>, CredentialSchemas>(
    loadCredentialSchemas,
    {
      id: 'credential-editor',
      lastResult,
      defaultValue,
      schemaOf: (schemas, formData) => {
        // With a key file picked, its secrets are read on the server: the browser does not ask for them.
        const file = formData.get('keyFile')
        const hasFile = typeof file === 'object' && file !== null && file.size > 0
        const context = { fields: fieldsOf(String(formData.get('type') ?? '')), keepsSecrets: isEdit || hasFile }
        // on edit, the fields still as stored are not checked again, as in the action (decision 103)
        return isEdit
          ? schemas.credentialEditForm.schemaOf(formData, context)
          : schemas.credentialFormSchema(context.fields, context)
      },
    },
  )
  // The type picked in this page (select or key file); conform's value until then (the server's answer).
  const [pickedType, setPickedType] = useState<string | null>(null)
  // A key file's values wait here until its type's fields are on the page (a ref: conform's updates re-render at once).
  const pendingFile = useRef<Record<string, string> | null>(null)
  const [fileCount, setFileCount] = useState(0)
  // The secrets the picked key file holds: the server takes them from the file (an input would lose a PEM key's line breaks).
  const [fileSecrets, setFileSecrets] = useState<string[]>([])
  const typeKey = fixedType ?? pickedType ?? (fields.type.value as string | undefined) ?? ''
  const type = types.find((option) => option.value === typeKey)
  const details = fields.details.getFieldset() as unknown as Record<string, DetailMeta>
  const keyFileErrors = (fields as unknown as Record<string, DetailMeta>).keyFile?.errors

  /** With scripts, the key file fills the form as soon as it is picked (the server does the same on submit). */
  function fillFromKeyFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0]
    if (!file) return
    void file.text().then((text) => {
      const values = parseKeyFile(text)
      if (!values) return
      const key =
        fixedType ??
        (typeOfKeyFile(
          values,
          types.map((option) => option.value),
        ) ||
          typeKey)
      if (!fixedType && key) {
        form.update({ name: fields.type.name, value: key })
        setPickedType(key)
      }
      pendingFile.current = values
      setFileCount((count) => count + 1)
    })
  }

  // Once the type's fields are on the page, the key file's values go into them.
  const typeValue = type?.value
  useEffect(() => {
    const values = pendingFile.current
    if (!values || !typeValue) return
    pendingFile.current = null
    const typeFields = types.find((option) => option.value === typeValue)?.fields ?? []
    for (const field of typeFields) {
      const value = values[field.key]
      if (value !== undefined && !field.secret) form.update({ name: `${fields.details.name}.${field.key}`, value })
    }
    setFileSecrets(
      typeFields.filter((field) => field.secret && values[field.key] !== undefined).map((field) => field.key),
    )
    // Only a new file or a new type fills the fields; `form` changes on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fileCount, typeValue])

  function followType(event: FormEvent<HTMLDivElement>) {
    const target = event.target as HTMLSelectElement
    if (target.name === fields.type.name) setPickedType(target.value)
  }

  return (
    <FormCard
      deniedReason={deniedReason}
      form={form}
      submit={{ label: submitLabel }}
      cancelTo={cancelTo}
      encType="multipart/form-data"
    >
      {submitIntent ? <input type="hidden" name="intent" value={submitIntent} /> : null}
      {originalOf(lastResult, defaultValue?.original) ? (
        <input type="hidden" name="original" value={originalOf(lastResult, defaultValue?.original)} />
      ) : null}
      {isHydrated || fixedType ? null : (
        // Enter in a field submits with the first submit button: this one (save), not "Show the fields".
        <button
          type="submit"
          tabIndex={-1}
          aria-hidden="true"
          style={{
            position: 'absolute',
            width: 1,
            height: 1,
            overflow: 'hidden',
            clip: 'rect(0 0 0 0)',
            border: 0,
            padding: 0,
          }}
        />
      )}
      <Field meta={fields.name} label="Name" inputProps={{ autoComplete: 'off' }} />
      <TextareaField meta={fields.description} label="Description" rows={2} />
      {fixedType ? (
        <Box mb="4">
          <Text fontWeight="medium" fontSize="sm" mb="1">
            Type
          </Text>
          <Text>{type ? `${type.label}${type.cloud ? ` (${type.cloud})` : ''}` : fixedType}</Text>
          <input type="hidden" name="type" value={fixedType} />
          <Text fontSize="xs" color="fg.muted" mt="1">
            A credential keeps its type; for another, create a new credential.
          </Text>
        </Box>
      ) : (
        <Box onChange={followType}>
          <SelectField
            meta={fields.type as FieldMetadata<string | undefined, Record<string, unknown>, string[]>}
            label="Type"
            options={types.map((option) => ({
              value: option.value,
              label: option.cloud ? `${option.label} (${option.cloud})` : option.label,
            }))}
            placeholder="Select a type"
            help={isHydrated ? undefined : 'Choose a type, then show its fields; or upload a key file below.'}
          />
          {isHydrated ? null : (
            <Button
              type="submit"
              name="intent"
              value={pickTypeIntent}
              formNoValidate
              size="sm"
              variant="outline"
              mt="-2"
              mb="4"
            >
              Show the fields for this type
            </Button>
          )}
        </Box>
      )}

      <Box mb="4">
        <chakra.label htmlFor="credential-key-file" display="block" fontWeight="medium" fontSize="sm" mb="1">
          Key file (JSON)
        </chakra.label>
        <input
          id="credential-key-file"
          type="file"
          name="keyFile"
          accept="application/json,.json"
          onChange={fillFromKeyFile}
          aria-describedby={
            keyFileErrors?.length ? 'credential-key-file-help credential-key-file-error' : 'credential-key-file-help'
          }
          aria-invalid={keyFileErrors?.length ? true : undefined}
        />
        <Box id="credential-key-file-help" fontSize="xs" color="fg.muted" mt="1">
          A GCP service account's key file, for one: its values fill the type's fields (and pick the type when none is
          chosen).
        </Box>
        <ErrorList id="credential-key-file-error" errors={keyFileErrors} />
      </Box>

      {type ? (
        <Box as="fieldset" borderTopWidth="1px" pt="4" mb="2">
          <chakra.legend fontWeight="semibold" fontSize="sm" mb="3">
            {type.label}
          </chakra.legend>
          {type.fields.map((field) => {
            const meta = details[field.key]!
            const isStored = stored.includes(field.key)
            return field.secret ? (
              <Field
                key={field.key}
                meta={meta}
                type="password"
                label={field.required ? field.label : `${field.label} (optional)`}
                help={
                  fileSecrets.includes(field.key)
                    ? 'Taken from the key file when you save; leave blank.'
                    : isStored
                      ? 'Stored and hidden. Leave blank to keep it.'
                      : isEdit
                        ? 'Leave blank to keep it unset.'
                        : undefined
                }
                inputProps={{
                  autoComplete: 'new-password',
                  placeholder: isStored ? '••••••••' : undefined,
                }}
              />
            ) : (
              <Field
                key={field.key}
                meta={meta}
                label={field.required ? field.label : `${field.label} (optional)`}
                inputProps={{ autoComplete: 'off' }}
              />
            )
          })}
        </Box>
      ) : typeKey ? (
        <Text mb="4" color="fg.muted">
          The cluster does not describe the fields of type {typeKey}.
        </Text>
      ) : null}
    </FormCard>
  )
}
