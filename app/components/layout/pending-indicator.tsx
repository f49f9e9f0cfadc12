import { Box } from '@chakra-ui/react'
import { useNavigation } from '@remix-run/react'

/** A thin bar across the top while a navigation or submission is under way (scripts only). */
export function PendingIndicator() {
  const navigation = useNavigation()
  const isPending = navigation.state !== 'idle'
  return (
    <Box role="status" aria-live="polite" position="fixed" top="0" left="0" right="0" h="3px" zIndex="max" pointerEvents="none">
      {isPending ? (
        <>
          <Box
            h="full"
            bg="blue.500"
            css={{
              animation: 'cc-pending 1.2s ease-in-out infinite',
              '@keyframes cc-pending': {
                '0%': { marginLeft: '0%', width: '10%' },
                '50%': { marginLeft: '30%', width: '50%' },
                '100%': { marginLeft: '100%', width: '10%' },
              },
            }}
          />
          <Box as="span" srOnly>
            Loading…
          </Box>
        </>
      ) : null}
    </Box>
  )
}
