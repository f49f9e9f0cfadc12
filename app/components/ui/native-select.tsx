import { NativeSelect as ChakraNativeSelect } from '@chakra-ui/react'
import { nativeSelectSlotRecipe } from '@chakra-ui/react/theme'
import { forwardRef } from 'react'

const Root = forwardRef<HTMLDivElement, ChakraNativeSelect.RootProps>(function NativeSelectRoot(props, ref) {
  return <ChakraNativeSelect.Root ref={ref} recipe={nativeSelectSlotRecipe} {...props} />
})

/** Chakra's NativeSelect parts; the root passes the slot recipe to the others (decision 034). */
export const NativeSelect = { Root, Field: ChakraNativeSelect.Field, Indicator: ChakraNativeSelect.Indicator }
