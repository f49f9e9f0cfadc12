import { type ButtonProps } from '@chakra-ui/react'
import { Text } from '~/components/ui/box'
import { HStack } from '~/components/ui/stack'
import { Button } from '~/components/ui/button'
import { Link } from '@remix-run/react'
import { useId, type ReactNode } from 'react'

/**
 * A control the signed-in user may not use: shown disabled, with the reason beside it ("Needs
 * delete_user"), the same with and without scripts, so no page offers an action that then fails.
 */
export function Denied({
  label,
  reason,
  size = 'sm',
}: {
  label: ReactNode
  reason: string
  size?: 'xs' | 'sm' | 'md'
}) {
  const id = useId()
  return (
    <HStack gap="1.5" display="inline-flex">
      <Button size={size} variant="outline" disabled aria-describedby={id}>
        {label}
      </Button>
      <Text as="span" id={id} fontSize="xs" color="fg.muted">
        {reason}
      </Text>
    </HStack>
  )
}

/**
 * A button-styled link that opens a step or a form (Rename…, Delete pool…, Edit) when the user may
 * use it; `reason` set (from `whyNot` in the loader): the same label disabled, with the reason beside it.
 */
export function GuardedLink({
  to,
  reason,
  children,
  size = 'sm',
  colorPalette,
  ariaLabel,
}: {
  to: string
  reason: string | null | undefined
  children: string
  size?: 'xs' | 'sm'
  colorPalette?: ButtonProps['colorPalette']
  ariaLabel?: string
}) {
  if (reason) return <Denied label={children} reason={reason} size={size} />
  return (
    <Button asChild size={size} variant="outline" colorPalette={colorPalette}>
      <Link to={to} aria-label={ariaLabel}>
        {children}
      </Link>
    </Button>
  )
}
