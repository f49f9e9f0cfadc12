import { Textarea as ChakraTextarea, type TextareaProps } from '@chakra-ui/react'
import { textareaRecipe } from '@chakra-ui/react/theme'
import { forwardRef } from 'react'
import { useIsFirstError } from '~/components/forms/field-shell'

/**
 * Chakra's Textarea with its recipe passed in rather than registered in the browser's system (decision 034).
 * Inside a form card it takes focus on load when it is the form's first field with an error.
 */
export const Textarea = forwardRef<HTMLTextAreaElement, TextareaProps>(function Textarea(props, ref) {
  // the form's first field with an error takes focus as the page loads (without scripts too): FieldShell's context
  const isFirstError = useIsFirstError(props.name)
  return <ChakraTextarea ref={ref} recipe={textareaRecipe} {...props} autoFocus={props.autoFocus || isFirstError} />
})
