import { Heading as ChakraHeading, type HeadingProps, type SystemStyleObject } from '@chakra-ui/react'
import { headingRecipe } from '@chakra-ui/react/theme'
import { forwardRef } from 'react'
import { pageSystem } from '~/theme'
import { DRAWS_PLAIN, Plain, plainKey, plainParts, stylesOf } from './plain'

const SIZES: Record<string, unknown> = headingRecipe.variants?.size ?? {}
const DEFAULT_SIZE = String(headingRecipe.defaultVariants?.size ?? 'xl')
type Variants = Parameters<ReturnType<typeof pageSystem.cva>>[0]

/**
 * Chakra's Heading with its recipe passed in rather than registered in the browser's system (decision
 * 034). A heading whose size and style props are single values (every heading of the console but a
 * focusable one, which takes a ref) is a plain element with the class and CSS Chakra would give it,
 * worked out once per process (decision 112).
 */
export const Heading = forwardRef<HTMLHeadingElement, HeadingProps>(function Heading({ size, ...props }, ref) {
  const isPlainSize = size === undefined || (typeof size === 'string' && size in SIZES)
  const parts = ref || !isPlainSize || !DRAWS_PLAIN ? null : plainParts(props as Record<string, unknown>)
  if (!parts) return <ChakraHeading ref={ref} recipe={headingRecipe} size={size} {...props} />
  const variant = typeof size === 'string' ? size : DEFAULT_SIZE
  return (
    <Plain
      tag={parts.tag ?? 'h2'}
      classPrefix="chakra-heading"
      styleKey={plainKey(`heading|${variant}`, parts.style, parts.css)}
      make={() => [
        pageSystem.cva(headingRecipe)({ size: variant } as Variants) as SystemStyleObject,
        ...stylesOf(parts),
      ]}
      attributes={parts.attributes}
    />
  )
})
