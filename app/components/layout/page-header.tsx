import { Box, Text } from '~/components/ui/box'
import { Heading } from '~/components/ui/heading'
import type { ReactNode } from 'react'

const SIZES = { 1: 'lg', 2: 'md', 3: 'sm' } as const

/**
 * A page's heading: its title (the page's one h1; `level` 2 under a section's own h1, as on the
 * Jobs tabs), an optional line above it (`eyebrow`, e.g. the parent project), a description under
 * it and actions (links styled as buttons) on the right. `mb` is the space below; 0 inside a Stack.
 */
export function PageHeader({
  title,
  eyebrow,
  description,
  actions,
  level = 1,
  mb = '6',
}: {
  title: ReactNode
  eyebrow?: ReactNode
  description?: ReactNode
  actions?: ReactNode
  level?: 1 | 2 | 3
  mb?: string
}) {
  return (
    <Box display="flex" flexWrap="wrap" alignItems="flex-start" justifyContent="space-between" gap="3" mb={mb}>
      <Box>
        {eyebrow ? (
          <Text color="fg.muted" fontSize="sm">
            {eyebrow}
          </Text>
        ) : null}
        <Heading as={`h${level}`} size={SIZES[level]}>
          {title}
        </Heading>
        {description ? (
          <Text color="fg.muted" fontSize="sm" mt="1">
            {description}
          </Text>
        ) : null}
      </Box>
      {actions ? (
        <Box display="flex" flexWrap="wrap" gap="2">
          {actions}
        </Box>
      ) : null}
    </Box>
  )
}
