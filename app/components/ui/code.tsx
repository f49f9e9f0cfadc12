import { Code as ChakraCode, type CodeProps } from '@chakra-ui/react'
import { codeRecipe } from '@chakra-ui/react/theme'
import { forwardRef } from 'react'
import { DRAWS_PLAIN, plainRecipe } from './plain'

/**
 * Chakra's Code with its recipe passed in rather than registered in the browser's system (decision
 * 034); on the server a plain element when its props allow (decision 112).
 */
export const Code = forwardRef<HTMLElement, CodeProps>(function Code(props, ref) {
  const plain =
    ref || !DRAWS_PLAIN
      ? null
      : plainRecipe(props as Record<string, unknown>, {
          name: 'code',
          recipe: codeRecipe,
          tag: 'code',
          classPrefix: 'chakra-code',
        })
  return plain ?? <ChakraCode ref={ref} recipe={codeRecipe} {...props} />
})
