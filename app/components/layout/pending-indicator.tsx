import { Box } from '@chakra-ui/react'
import { useNavigation } from '@remix-run/react'

/** A thin bar across the top while a navigation or submission is under way (scripts only). */
export function PendingIndicator() {
  const navigation = useNavigation()
  const isPending = navigation.state !== 'idle'
  return (
    <Box role="status" aria-live="polite" position="fixed" top="0" left="0" right="0" h="3px" zIndex="max" pointerEvents="none" overflow="hidden">
      {isPending ? (
        <>
          <Box
            h="full"
            bg="blue.500"
            // The keyframes are in the theme stylesheet (theme-global.server.ts): transform only, so the
            // compositor animates them and a pending navigation's frames cost the main thread nothing.
            transformOrigin="left"
            willChange="transform"
            animation="cc-pending 1.2s ease-in-out infinite"
            _motionReduce={{ animation: 'none', transform: 'scaleX(0.3)' }}
          />
          <Box as="span" srOnly>
            Loading…
          </Box>
        </>
      ) : null}
    </Box>
  )
}
