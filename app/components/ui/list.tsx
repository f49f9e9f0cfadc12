import { List as ChakraList } from '@chakra-ui/react'
import { listSlotRecipe } from '@chakra-ui/react/theme'
import { forwardRef } from 'react'

const Root = forwardRef<HTMLUListElement, ChakraList.RootProps>(function ListRoot(props, ref) {
  return <ChakraList.Root ref={ref} recipe={listSlotRecipe} {...props} />
})

/** Chakra's List parts; the root passes the slot recipe to the others (decision 034). */
export const List = { Root, Item: ChakraList.Item, Indicator: ChakraList.Indicator }
