import { Badge as ChakraBadge, type BadgeProps } from '@chakra-ui/react'
import { badgeRecipe } from '@chakra-ui/react/theme'
import { forwardRef } from 'react'
import { DRAWS_PLAIN, plainRecipe } from './plain'

/**
 * Chakra's Badge with its recipe passed in rather than registered in the browser's system (decision
 * 034); on the server a plain element when its props allow (decision 112).
 */
export const Badge = forwardRef<HTMLSpanElement, BadgeProps>(function Badge(props, ref) {
  const plain =
    ref || !DRAWS_PLAIN
      ? null
      : plainRecipe(props as Record<string, unknown>, {
          name: 'badge',
          recipe: badgeRecipe,
          tag: 'span',
          classPrefix: 'chakra-badge',
        })
  return plain ?? <ChakraBadge ref={ref} recipe={badgeRecipe} {...props} />
})
