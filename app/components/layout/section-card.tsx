import { HStack } from '~/components/ui/stack'
import { Heading } from '~/components/ui/heading'
import { Box } from '~/components/ui/box'
import type { ReactNode } from 'react'

/**
 * One part of a page in a card: a region named by its h2 (`<id>-heading`), optional actions beside
 * the heading, then `children`. Use it for a detail page's panels (Details, Statistics).
 */
export function SectionCard({
  id,
  title,
  actions,
  children,
}: {
  id: string
  title: ReactNode
  actions?: ReactNode
  children: ReactNode
}) {
  return (
    <Box as="section" aria-labelledby={`${id}-heading`} bg="bg" borderWidth="1px" rounded="md" p="4">
      <HStack justify="space-between" align="start" wrap="wrap" gap="3" mb="3">
        <Heading as="h2" id={`${id}-heading`} size="md">
          {title}
        </Heading>
        {actions}
      </HStack>
      {children}
    </Box>
  )
}
