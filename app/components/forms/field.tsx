import { getInputProps, getTextareaProps, type FieldMetadata } from '@conform-to/react'
import { Box, chakra, Input, Textarea, type InputProps } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import { ErrorList } from './error-list'

type FieldProps = {
  meta: FieldMetadata<string | number | undefined, Record<string, unknown>, string[]>
  label: ReactNode
  type?: 'text' | 'email' | 'password' | 'number' | 'url' | 'search' | 'tel' | 'date' | 'datetime-local'
  help?: ReactNode
  inputProps?: Omit<InputProps, 'name' | 'id' | 'type' | 'defaultValue'>
}

/** A labelled input wired to a conform field: errors below it, aria-invalid and aria-describedby set. */
export function Field({ meta, label, type = 'text', help, inputProps }: FieldProps) {
  const props = getInputProps(meta, { type })
  const helpId = help ? `${meta.id}-help` : undefined
  return (
    <Box mb="4">
      <chakra.label htmlFor={meta.id} display="block" fontWeight="medium" fontSize="sm" mb="1">
        {label}
      </chakra.label>
      <Input
        {...inputProps}
        {...props}
        key={props.key}
        aria-describedby={[props['aria-describedby'], helpId].filter(Boolean).join(' ') || undefined}
        borderColor={meta.errors?.length ? 'border.error' : undefined}
      />
      {help ? (
        <Box id={helpId} fontSize="xs" color="fg.muted" mt="1">
          {help}
        </Box>
      ) : null}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </Box>
  )
}

/** A labelled textarea wired to a conform field. */
export function TextareaField({
  meta,
  label,
  rows = 4,
}: {
  meta: FieldMetadata<string | undefined, Record<string, unknown>, string[]>
  label: ReactNode
  rows?: number
}) {
  const props = getTextareaProps(meta)
  return (
    <Box mb="4">
      <chakra.label htmlFor={meta.id} display="block" fontWeight="medium" fontSize="sm" mb="1">
        {label}
      </chakra.label>
      <Textarea {...props} key={props.key} rows={rows} />
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </Box>
  )
}
