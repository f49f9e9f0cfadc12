import { chakra } from '@chakra-ui/react'
import type { ComponentProps } from 'react'
import { useIsFirstError } from './field-shell'

type FormSelectProps = ComponentProps<typeof chakra.select> & {
  /** Draws the error border (the field's errors are shown by its FieldShell). */
  isInvalid?: boolean
  /** `md` for form fields (full width), `sm` for filters and table rows. */
  size?: 'sm' | 'md'
}

/**
 * The console's one styled native `<select>`: it works without scripts (Chakra's Select does not)
 * and looks the same in every form, filter and table row. Style props given override the defaults.
 * Inside a form card it takes focus on load when it is the form's first field with an error.
 */
export function FormSelect({ isInvalid = false, size = 'md', ...props }: FormSelectProps) {
  // the form's first field with an error takes focus as the page loads (without scripts too)
  const isFirstError = useIsFirstError(props.name)
  return (
    <chakra.select
      w={size === 'md' ? 'full' : undefined}
      h={size === 'md' ? '10' : '8'}
      px={size === 'md' ? '3' : '2'}
      borderWidth="1px"
      borderColor={isInvalid ? 'border.error' : 'border'}
      rounded="l2"
      bg="bg"
      fontSize="sm"
      {...props}
      autoFocus={props.autoFocus || isFirstError}
    />
  )
}
