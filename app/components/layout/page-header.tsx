import { Box, Heading, Text } from '@chakra-ui/react'
import type { ReactNode } from 'react'

/** A page's title (the one h1) with an optional line under it and actions on the right. */
export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <Box display="flex" alignItems="flex-start" justifyContent="space-between" gap="4" mb="6">
      <Box>
        <Heading as="h1" size="lg">
          {title}
        </Heading>
        {description ? (
          <Text color="fg.muted" mt="1">
            {description}
          </Text>
        ) : null}
      </Box>
      {actions ? <Box display="flex" gap="2">{actions}</Box> : null}
    </Box>
  )
}
