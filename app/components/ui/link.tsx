import { Link as ChakraLink, type LinkProps } from '@chakra-ui/react'
import { linkRecipe } from '@chakra-ui/react/theme'
import { forwardRef } from 'react'

/** Chakra's Link with its recipe passed in rather than registered in the browser's system (decision 034). */
export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link(props, ref) {
  return <ChakraLink ref={ref} recipe={linkRecipe} {...props} />
})
