import { getInputProps, type FieldMetadata } from '@conform-to/react'
import { Box, chakra } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import { ErrorList } from './error-list'

/**
 * A native checkbox wired to a conform field; it submits "on" when checked, which zod reads with
 * `z.coerce.boolean()` or `z.literal('on').optional()` (an unchecked box sends nothing).
 */
export function CheckboxField({
  meta,
  label,
  help,
}: {
  meta: FieldMetadata<boolean | string | undefined, Record<string, unknown>, string[]>
  label: ReactNode
  help?: ReactNode
}) {
  const props = getInputProps(meta, { type: 'checkbox' })
  return (
    <Box mb="4">
      <chakra.label htmlFor={meta.id} display="inline-flex" alignItems="center" gap="2" fontSize="sm" cursor="pointer">
        <input {...props} key={props.key} />
        {label}
      </chakra.label>
      {help ? (
        <Box fontSize="xs" color="fg.muted" mt="1">
          {help}
        </Box>
      ) : null}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </Box>
  )
}
