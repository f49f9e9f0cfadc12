import { getInputProps, getTextareaProps, type FieldMetadata } from '@conform-to/react'
import { type InputProps } from '@chakra-ui/react'
import { Input } from '~/components/ui/input'
import { Textarea } from '~/components/ui/textarea'
import type { ReactNode } from 'react'
import { describedBy, FieldShell, helpIdOf, useIsFirstError } from './field-shell'

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
  const isFirstError = useIsFirstError(meta.name)
  return (
    <FieldShell meta={meta} label={label} help={help}>
      <Input
        {...inputProps}
        {...props}
        key={props.key}
        autoFocus={isFirstError || inputProps?.autoFocus}
        aria-describedby={describedBy(props['aria-describedby'], helpIdOf(meta, help))}
        borderColor={meta.errors?.length ? 'border.error' : undefined}
      />
    </FieldShell>
  )
}

/** A labelled textarea wired to a conform field (`isCode`: monospaced, no spell check, for SQL and JSON). */
export function TextareaField({
  meta,
  label,
  rows = 4,
  help,
  isCode = false,
}: {
  meta: FieldMetadata<string | undefined, Record<string, unknown>, string[]>
  label: ReactNode
  rows?: number
  help?: ReactNode
  isCode?: boolean
}) {
  const props = getTextareaProps(meta)
  const isFirstError = useIsFirstError(meta.name)
  return (
    <FieldShell meta={meta} label={label} help={help}>
      <Textarea
        {...props}
        key={props.key}
        rows={rows}
        autoFocus={isFirstError}
        aria-describedby={describedBy(props['aria-describedby'], helpIdOf(meta, help))}
        borderColor={meta.errors?.length ? 'border.error' : undefined}
        {...(isCode ? { fontFamily: 'mono', spellCheck: false } : {})}
      />
    </FieldShell>
  )
}
