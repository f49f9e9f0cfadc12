import { Code as ChakraCode, type CodeProps } from '@chakra-ui/react'
import { codeRecipe } from '@chakra-ui/react/theme'
import { forwardRef } from 'react'

/** Chakra's Code with its recipe passed in rather than registered in the browser's system (decision 034). */
export const Code = forwardRef<HTMLElement, CodeProps>(function Code(props, ref) {
  return <ChakraCode ref={ref} recipe={codeRecipe} {...props} />
})
