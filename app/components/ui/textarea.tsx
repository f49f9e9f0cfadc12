import { Textarea as ChakraTextarea, type TextareaProps } from '@chakra-ui/react'
import { textareaRecipe } from '@chakra-ui/react/theme'
import { forwardRef } from 'react'

/** Chakra's Textarea with its recipe passed in rather than registered in the browser's system (decision 034). */
export const Textarea = forwardRef<HTMLTextAreaElement, TextareaProps>(function Textarea(props, ref) {
  return <ChakraTextarea ref={ref} recipe={textareaRecipe} {...props} />
})
