import { Heading as ChakraHeading, type HeadingProps } from '@chakra-ui/react'
import { headingRecipe } from '@chakra-ui/react/theme'
import { forwardRef } from 'react'

/** Chakra's Heading with its recipe passed in rather than registered in the browser's system (decision 034). */
export const Heading = forwardRef<HTMLHeadingElement, HeadingProps>(function Heading(props, ref) {
  return <ChakraHeading ref={ref} recipe={headingRecipe} {...props} />
})
