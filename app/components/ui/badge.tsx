import { Badge as ChakraBadge, type BadgeProps } from '@chakra-ui/react'
import { badgeRecipe } from '@chakra-ui/react/theme'
import { withPlainRecipe } from './plain'

/**
 * Chakra's Badge with its recipe passed in rather than registered in the browser's system (decision
 * 034); on the server a plain element when its props allow (decision 112).
 */
export const Badge = withPlainRecipe<BadgeProps, HTMLSpanElement>(ChakraBadge, {
  name: 'badge',
  recipe: badgeRecipe,
  tag: 'span',
  classPrefix: 'chakra-badge',
})
