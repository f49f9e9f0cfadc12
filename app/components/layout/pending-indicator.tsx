import { Box } from '~/components/ui/box'
import { useNavigation } from '@remix-run/react'
import { useEffect, useState } from 'react'

/** Pending for less than this, a navigation shows no bar: no flash, and no frames to draw for it. */
const SHOW_AFTER_MS = 300

/** A thin bar across the top while a navigation or submission is under way (scripts only). */
export function PendingIndicator() {
  const navigation = useNavigation()
  const isPending = useIsLongPending(navigation.state !== 'idle')
  return (
    <div role="status" aria-live="polite" className="cc-pending">
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
    </div>
  )
}

/** True once `isPending` has held for SHOW_AFTER_MS; false again as soon as it ends. */
function useIsLongPending(isPending: boolean): boolean {
  const [isLong, setLong] = useState(false)
  useEffect(() => {
    if (!isPending) return setLong(false)
    const timer = window.setTimeout(() => setLong(true), SHOW_AFTER_MS)
    return () => window.clearTimeout(timer)
  }, [isPending])
  return isPending && isLong
}
