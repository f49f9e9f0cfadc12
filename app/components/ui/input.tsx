import { Input as ChakraInput, type InputProps } from '@chakra-ui/react'
import { inputRecipe } from '@chakra-ui/react/theme'
import { forwardRef } from 'react'

/** Chakra's Input with its recipe passed in rather than registered in the browser's system (decision 034). */
export const Input = forwardRef<HTMLInputElement, InputProps>(function Input(props, ref) {
  return <ChakraInput ref={ref} recipe={inputRecipe} {...props} />
})
