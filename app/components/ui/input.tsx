import { Input as ChakraInput, type InputProps } from '@chakra-ui/react'
import { inputRecipe } from '@chakra-ui/react/theme'
import { forwardRef } from 'react'
import { useIsFirstError } from '~/components/forms/field-shell'

/**
 * Chakra's Input with its recipe passed in rather than registered in the browser's system (decision 034).
 * Inside a form card it takes focus on load when it is the form's first field with an error.
 */
export const Input = forwardRef<HTMLInputElement, InputProps>(function Input(props, ref) {
  // the form's first field with an error takes focus as the page loads (without scripts too): FieldShell's context
  const isFirstError = useIsFirstError(props.name)
  return <ChakraInput ref={ref} recipe={inputRecipe} {...props} autoFocus={props.autoFocus || isFirstError} />
})
