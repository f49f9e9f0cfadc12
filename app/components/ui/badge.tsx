import { Badge as ChakraBadge, type BadgeProps } from '@chakra-ui/react'
import { badgeRecipe } from '@chakra-ui/react/theme'
import { forwardRef } from 'react'

/** Chakra's Badge with its recipe passed in rather than registered in the browser's system (decision 034). */
export const Badge = forwardRef<HTMLSpanElement, BadgeProps>(function Badge(props, ref) {
  return <ChakraBadge ref={ref} recipe={badgeRecipe} {...props} />
})
