import { Code as ChakraCode, type CodeProps } from '@chakra-ui/react'
import { codeRecipe } from '@chakra-ui/react/theme'
import { withPlainRecipe } from './plain'

/**
 * Chakra's Code with its recipe passed in rather than registered in the browser's system (decision
 * 034); on the server a plain element when its props allow (decision 112).
 */
export const Code = withPlainRecipe<CodeProps, HTMLElement>(ChakraCode, {
  name: 'code',
  recipe: codeRecipe,
  tag: 'code',
  classPrefix: 'chakra-code',
})
