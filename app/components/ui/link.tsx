import { Link as ChakraLink, type LinkProps } from '@chakra-ui/react'
import { linkRecipe } from '@chakra-ui/react/theme'
import { withPlainRecipe } from './plain'

const LINK_ATTRIBUTES = new Set(['href', 'target', 'rel', 'download'])

/**
 * Chakra's Link with its recipe passed in rather than registered in the browser's system (decision
 * 034); on the server a plain element when its props allow (decision 112).
 */
export const Link = withPlainRecipe<LinkProps, HTMLAnchorElement>(ChakraLink, {
  name: 'link',
  recipe: linkRecipe,
  tag: 'a',
  classPrefix: 'chakra-link',
  isAttribute: (key) => LINK_ATTRIBUTES.has(key),
})
