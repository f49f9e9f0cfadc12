import { Text } from '~/components/ui/box'
import { HStack } from '~/components/ui/stack'
import { Link as ChakraLink } from '~/components/ui/link'
import { Link } from '@remix-run/react'
import type { ReactNode } from 'react'

type EmptyLink = { to: string; label: string }

/**
 * What a list shows when it has no rows: a sentence that says what to do next and that action as a
 * link (and, as `alternative`, a second way on: e.g. a form that loads the sample). With `filter` set (a filter is
 * on) its message and a link that clears it show instead, so an
 * empty result never reads as an empty cluster. Plain links: it works without scripts.
 */
export function EmptyState({
  message,
  action,
  filter,
  alternative,
}: {
  message: ReactNode
  action?: EmptyLink | null
  alternative?: ReactNode
  filter?: { message: ReactNode; clearTo: string; clearLabel?: string } | null
}) {
  const link = filter ? { to: filter.clearTo, label: filter.clearLabel ?? 'Clear the filter' } : action
  return (
    <>
      <Text mb={link ? '2' : undefined}>{filter ? filter.message : message}</Text>
      {link && alternative && !filter ? (
        <HStack gap="3" wrap="wrap">
          <ChakraLink asChild color="link" data-empty-action="">
            <Link to={link.to}>{link.label}</Link>
          </ChakraLink>
          {alternative}
        </HStack>
      ) : link ? (
        <ChakraLink asChild color="link" data-empty-action="">
          <Link to={link.to}>{link.label}</Link>
        </ChakraLink>
      ) : null}
    </>
  )
}
