import { Heading as ChakraHeading, type HeadingProps } from '@chakra-ui/react'
import { headingRecipe } from '@chakra-ui/react/theme'
import { withPlainRecipe } from './plain'

/**
 * Chakra's Heading with its recipe passed in rather than registered in the browser's system (decision
 * 034); on the server a plain element when its props allow (decision 112: every heading of the
 * console but a focusable one, which takes a ref).
 */
export const Heading = withPlainRecipe<HeadingProps, HTMLHeadingElement>(ChakraHeading, {
  name: 'heading',
  recipe: headingRecipe,
  tag: 'h2',
  classPrefix: 'chakra-heading',
})
