import { getSelectProps, type FieldMetadata } from '@conform-to/react'
import type { ReactNode } from 'react'
import { describedBy, FieldShell, helpIdOf, useIsFirstError } from './field-shell'
import { FormSelect } from './form-select'

export type SelectOption = { value: string; label: string }

/** A labelled native select wired to a conform field (works without scripts, unlike Chakra's Select). */
export function SelectField({
  meta,
  label,
  options,
  placeholder,
  help,
}: {
  meta: FieldMetadata<string | undefined, Record<string, unknown>, string[]>
  label: ReactNode
  options: SelectOption[]
  /** An empty first option, e.g. "Select a project". */
  placeholder?: string
  help?: ReactNode
}) {
  const props = getSelectProps(meta)
  const isFirstError = useIsFirstError(meta.name)
  return (
    <FieldShell meta={meta} label={label} help={help}>
      <FormSelect
        {...props}
        key={props.key}
        autoFocus={isFirstError}
        aria-describedby={describedBy(props['aria-describedby'], helpIdOf(meta, help))}
        isInvalid={Boolean(meta.errors?.length)}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </FormSelect>
    </FieldShell>
  )
}
