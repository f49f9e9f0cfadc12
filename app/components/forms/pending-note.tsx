import { chakra } from '@chakra-ui/react'
import { Box } from '~/components/ui/box'
import { useNavigation } from '@remix-run/react'
import { useEffect, useState, type RefObject } from 'react'
import { CONFIG_WRITE_TIMEOUT_MS } from '~/utils/cluster-timeouts'

/** After how long a submission says it is still waiting. */
const SHOW_AFTER_MS = 2_000

/**
 * With scripts, while the form `formRef` sent is waiting for its answer (FormCard marks it
 * `data-sent`): after 2 s, how long it has waited, in seconds, and when the console gives up
 * (issue 54, point 4; decision 098). Announced once when it appears; the count itself is not read
 * out every second.
 */
export function PendingNote({ formRef }: { formRef: RefObject<HTMLFormElement | null> }) {
  const navigation = useNavigation()
  const isWaiting = navigation.state === 'submitting' && !!formRef.current?.hasAttribute('data-sent')
  const [seconds, setSeconds] = useState(0)
  useEffect(() => {
    if (!isWaiting) return
    const started = Date.now()
    setSeconds(0)
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 250)
    return () => clearInterval(timer)
  }, [isWaiting])
  const isShown = isWaiting && seconds * 1000 >= SHOW_AFTER_MS
  if (!isShown) return null
  return (
    <Box role="status" mt="3" fontSize="sm" color="fg.muted">
      Still waiting for the cluster: <chakra.span aria-hidden="true">{seconds} s. </chakra.span>
      The console gives up after {Math.round(CONFIG_WRITE_TIMEOUT_MS / 1000)} s.
    </Box>
  )
}
