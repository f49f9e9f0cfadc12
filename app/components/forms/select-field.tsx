import { getSelectProps, type FieldMetadata } from '@conform-to/react'
import { Box, chakra } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import { ErrorList } from './error-list'

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
  const helpId = help ? `${meta.id}-help` : undefined
  return (
    <Box mb="4">
      <chakra.label htmlFor={meta.id} display="block" fontWeight="medium" fontSize="sm" mb="1">
        {label}
      </chakra.label>
      <chakra.select
        {...props}
        key={props.key}
        aria-describedby={[props['aria-describedby'], helpId].filter(Boolean).join(' ') || undefined}
        w="full"
        h="10"
        px="3"
        borderWidth="1px"
        borderColor={meta.errors?.length ? 'border.error' : 'border'}
        rounded="l2"
        bg="bg"
        fontSize="sm"
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </chakra.select>
      {help ? (
        <Box id={helpId} fontSize="xs" color="fg.muted" mt="1">
          {help}
        </Box>
      ) : null}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </Box>
  )
}
