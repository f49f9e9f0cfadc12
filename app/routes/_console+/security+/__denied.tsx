import { Button, HStack, Text } from '@chakra-ui/react'
import { useId } from 'react'

/**
 * A control the signed-in user may not use: shown disabled, with the reason beside it ("Needs
 * delete_user"), the same with and without scripts, so no page offers an action that then fails.
 */
export function Denied({ label, reason, size = 'sm' }: { label: string; reason: string; size?: 'xs' | 'sm' }) {
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
