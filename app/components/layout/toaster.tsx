// Chakra's own Box and Text: toasts are few, and the root's first load should not name the plain path's chunk
import { Box, Text } from '@chakra-ui/react'
import { Stack } from '~/components/ui/stack'
import { Button } from '~/components/ui/button'
import { useEffect, useRef, useState } from 'react'
import { useHydrated } from 'remix-utils/use-hydrated'

export type ToastItem = {
  id: string
  title: string
  description?: string
  type: 'success' | 'error' | 'info' | 'warning'
}

/** Spec section 9: a toast shows for 2000 ms; a timer removes the oldest each interval. */
export const TOAST_DURATION_MS = 2000

const palette: Record<ToastItem['type'], string> = {
  success: 'green',
  error: 'red',
  info: 'blue',
  warning: 'orange',
}

/**
 * The toasts the server read from the flash cookie. Rendered on the server, so they show without
 * scripts (and stay until the next page); with scripts the oldest goes every 2000 ms and each has
 * a dismiss button.
 */
export function Toaster({ toasts }: { toasts: ToastItem[] }) {
  const isHydrated = useHydrated()
  // From the server's HTML, the toasts are there at once; mounted later in the browser (root.tsx
  // loads it with the first toast), the effect below adds them as it adds every new one.
  const [items, setItems] = useState(isHydrated ? [] : toasts)
  const listRef = useRef<HTMLDivElement>(null)

  // New toasts arrive with each navigation's root loader data (after a form was sent). When that
  // navigation left focus nowhere (the form that had it is gone), the first new toast takes it, as
  // it does on load without scripts; focus still on the page (a save that stays) is left there.
  useEffect(() => {
    const known = new Set(items.map((toast) => toast.id))
    const added = toasts.filter((toast) => !known.has(toast.id))
    if (!added.length) return
    setItems((current) => [...current, ...added.filter((toast) => !current.some((item) => item.id === toast.id))])
    const first = added[0]!.id
    requestAnimationFrame(() => {
      if (document.activeElement && document.activeElement !== document.body) return
      listRef.current?.querySelector<HTMLElement>(`[data-toast-id="${CSS.escape(first)}"]`)?.focus()
    })
    // only the loader's toasts start this: `items` is read as it was rendered
    // eslint-disable-next-line react-hooks/exhaustive-deps -- see above
  }, [toasts])

  /** Removes toasts; focus inside one that goes moves to the page's heading rather than being lost. */
  const remove = (keep: (toast: ToastItem, index: number) => boolean) => {
    const focused = document.activeElement?.closest<HTMLElement>('[data-toast-id]')?.dataset.toastId
    setItems((current) => current.filter(keep))
    if (focused) {
      requestAnimationFrame(() => {
        if (document.querySelector(`[data-toast-id="${CSS.escape(focused)}"]`)) return
        focusPageHeading()
      })
    }
  }

  useEffect(() => {
    if (!items.length) return
    const timer = setInterval(() => remove((_, index) => index > 0), TOAST_DURATION_MS)
    return () => clearInterval(timer)
  }, [items.length])

  if (!items.length) return null
  return (
    <Stack
      as="section"
      aria-label="Notifications"
      ref={listRef}
      position="fixed"
      bottom="4"
      right="4"
      zIndex="toast"
      gap="2"
      maxW="sm"
      w="full"
    >
      {items.map((toast, index) => (
        <Box
          key={toast.id}
          data-toast-id={toast.id}
          role={toast.type === 'error' ? 'alert' : 'status'}
          // A page loaded after a form was sent (without scripts: always) starts with focus on its
          // first toast; the page's first field with an error, earlier in the document, wins over it.
          tabIndex={-1}
          autoFocus={!isHydrated && index === 0}
          _focusVisible={{ outline: '2px solid', outlineColor: 'fg', outlineOffset: '2px' }}
          bg={`${palette[toast.type]}.solid`}
          color={`${palette[toast.type]}.contrast`}
          px="4"
          py="3"
          rounded="md"
          shadow="lg"
          display="flex"
          gap="3"
          alignItems="flex-start"
        >
          <Box flex="1">
            <Text fontWeight="semibold">{toast.title}</Text>
            {toast.description ? <Text fontSize="sm">{toast.description}</Text> : null}
          </Box>
          {isHydrated ? (
            <Button
              size="xs"
              variant="ghost"
              color="inherit"
              aria-label={`Dismiss: ${toast.title}`}
              onClick={() => remove((item) => item.id !== toast.id)}
            >
              ✕
            </Button>
          ) : null}
        </Box>
      ))}
    </Stack>
  )
}

/** Focuses the page's main heading (the first h1), made focusable for the purpose. */
function focusPageHeading() {
  const heading = document.querySelector<HTMLElement>('main h1') ?? document.querySelector<HTMLElement>('h1')
  if (!heading) return
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1')
  heading.focus({ preventScroll: true })
}
