import { Box as ChakraBox, Text as ChakraText, type BoxProps, type TextProps } from '@chakra-ui/react'
import { forwardRef } from 'react'
import { DRAWS_PLAIN, Plain, plainKey, plainParts, stylesOf } from './plain'

/**
 * Chakra's Box. One whose style props are single values (no responsive or conditional value, no
 * `css` object, no `asChild`, no ref) is a plain element with the class and CSS Chakra would give
 * it, worked out once per process (decision 112).
 */
export const Box = forwardRef<HTMLDivElement, BoxProps>(function Box(props, ref) {
  const parts = ref || !DRAWS_PLAIN ? null : plainParts(props as Record<string, unknown>)
  if (!parts) return <ChakraBox ref={ref} {...props} />
  return (
    <Plain
      tag={parts.tag ?? 'div'}
      styleKey={plainKey('box', parts.style, parts.css)}
      make={() => stylesOf(parts)}
      attributes={parts.attributes}
    />
  )
})

/** Chakra's Text (a paragraph), drawn plain as Box is. */
export const Text = forwardRef<HTMLParagraphElement, TextProps>(function Text(props, ref) {
  const parts = ref || !DRAWS_PLAIN ? null : plainParts(props as Record<string, unknown>)
  if (!parts) return <ChakraText ref={ref} {...props} />
  return (
    <Plain
      tag={parts.tag ?? 'p'}
      styleKey={plainKey('text', parts.style, parts.css)}
      make={() => stylesOf(parts)}
      attributes={parts.attributes}
    />
  )
})
