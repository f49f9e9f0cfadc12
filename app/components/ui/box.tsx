import { Box as ChakraBox, Text as ChakraText, type BoxProps, type TextProps } from '@chakra-ui/react'
import { withPlainStyle } from './plain'

/**
 * Chakra's Box. One whose style props are single values (no responsive or conditional value, no
 * `css` object but defineCss's, no `asChild`, no ref) is drawn on the server as a plain element
 * with the class and CSS Chakra would give it, worked out once per process (decision 112).
 */
export const Box = withPlainStyle<BoxProps, HTMLDivElement>(ChakraBox, 'box', 'div')

/** Chakra's Text (a paragraph), drawn plain as Box is. */
export const Text = withPlainStyle<TextProps, HTMLParagraphElement>(ChakraText, 'text', 'p')
