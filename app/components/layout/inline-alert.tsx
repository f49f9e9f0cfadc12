import { Box, Text } from '~/components/ui/box'
import type { ReactNode } from 'react'

/**
 * One part of a page that failed (a panel's call, a refused statement): its message in place of the
 * part, while the page around it stays usable. `title` says what failed; `children` is the message.
 */
export function InlineAlert({
  title,
  children,
  id,
  mt,
}: {
  title?: string
  children: ReactNode
  id?: string
  mt?: string
}) {
  return (
    <Box
      id={id}
      role="alert"
      bg="red.subtle"
      color="red.fg"
      borderWidth="1px"
      borderColor="red.muted"
      rounded="md"
      px="3"
      py="2"
      mt={mt}
      fontSize="sm"
    >
      {title ? <Text fontWeight="medium">{title}</Text> : null}
      {children}
    </Box>
  )
}
