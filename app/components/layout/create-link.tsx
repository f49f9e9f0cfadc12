import { type ButtonProps } from '@chakra-ui/react'
import { Text } from '~/components/ui/box'
import { HStack } from '~/components/ui/stack'
import { Button } from '~/components/ui/button'
import { Link, useRouteLoaderData } from '@remix-run/react'
import type { ReactNode } from 'react'
import { Denied } from './denied'
import { ADD_NEW_ENTRIES } from './nav-config'

/** The console layout's route id: its loader says which creation paths the user can never use. */
const LAYOUT_ROUTE_ID = 'routes/_console+/_layout'

/** The creation paths (nav-config ADD_NEW_ENTRIES) the signed-in user can never use, from the layout's loader. */
export function useHiddenCreationPaths(): string[] {
  return useRouteLoaderData<{ hiddenPaths?: string[] }>(LAYOUT_ROUTE_ID)?.hiddenPaths ?? []
}

/**
 * A page's "New …" button: a link to the creation page, or, when the signed-in user has none of the
 * permissions that page needs (the layout's `hiddenPaths`, as for "+ add new"), a disabled button
 * with the permission named beside it, so no page offers what the cluster would refuse. `denied`: a
 * reason the page's own loader found (`loadAllowed`): the same label disabled with it (`Denied`).
 */
export function CreateLink({
  to,
  children,
  colorPalette,
  variant,
  denied,
  ...rest
}: { to: string; children: ReactNode; denied?: string | null } & Pick<ButtonProps, 'colorPalette' | 'variant'> & {
    size?: 'sm'
  }) {
  const hidden = useHiddenCreationPaths()
  const entry = ADD_NEW_ENTRIES.find((candidate) => candidate.to === to.split('?')[0])
  if (denied) return <Denied label={children} reason={denied} />
  if (entry && hidden.includes(entry.to)) {
    const reason = `Needs ${entry.needs.join(' or ')}`
    return (
      <HStack gap="2">
        <Button type="button" size="sm" variant={variant} disabled title={reason}>
          {children}
        </Button>
        <Text fontSize="xs" color="fg.muted">
          {reason}
        </Text>
      </HStack>
    )
  }
  return (
    <Button asChild size="sm" colorPalette={colorPalette} variant={variant} {...rest}>
      <Link to={to}>{children}</Link>
    </Button>
  )
}
