import { chakra } from '@chakra-ui/react'
import { HStack } from '~/components/ui/stack'
import { useEffect, useState } from 'react'
import { useNavigation, useRevalidator, useSearchParams } from '@remix-run/react'
import { useHydrated } from 'remix-utils/use-hydrated'

export const LIVE_INTERVAL_MS = 5000

/**
 * "Live": with scripts, reloads the page's data every 5 s while the tab is visible and nothing else
 * is loading; the choice is kept in the URL (`live=1`). Without scripts it is not shown (the page's
 * plain Refresh link does the same by hand).
 */
export function LiveToggle({ isLive }: { isLive: boolean }) {
  const isHydrated = useHydrated()
  const [, setSearchParams] = useSearchParams()
  const revalidator = useRevalidator()
  const navigation = useNavigation()
  const isBusy = revalidator.state !== 'idle' || navigation.state !== 'idle'
  // Shown at once: the URL (and `isLive`) follow when the navigation it starts has loaded.
  const [isChecked, setChecked] = useState(isLive)
  useEffect(() => setChecked(isLive), [isLive])

  useEffect(() => {
    if (!isLive) return
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible' && !isBusy) revalidator.revalidate()
    }, LIVE_INTERVAL_MS)
    return () => window.clearInterval(timer)
  }, [isLive, isBusy, revalidator])

  if (!isHydrated) return null
  return (
    <HStack as="label" gap="2" fontSize="sm" cursor="pointer">
      <chakra.input
        type="checkbox"
        checked={isChecked}
        onChange={(event) => {
          setChecked(event.target.checked)
          setSearchParams(
            (params) => {
              const next = new URLSearchParams(params)
              if (event.target.checked) next.set('live', '1')
              else next.delete('live')
              return next
            },
            { replace: true, preventScrollReset: true },
          )
        }}
      />
      Live (every 5 s)
    </HStack>
  )
}
