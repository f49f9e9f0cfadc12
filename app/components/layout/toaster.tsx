import { Box, Button, Stack, Text } from '@chakra-ui/react'
import { useEffect, useState } from 'react'
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
  const [items, setItems] = useState(toasts)

  // New toasts arrive with each navigation's root loader data.
  useEffect(() => {
    setItems((current) => {
      const known = new Set(current.map((toast) => toast.id))
      const added = toasts.filter((toast) => !known.has(toast.id))
      return added.length ? [...current, ...added] : current
    })
  }, [toasts])

  useEffect(() => {
    if (!items.length) return
    const timer = setInterval(() => setItems((current) => current.slice(1)), TOAST_DURATION_MS)
    return () => clearInterval(timer)
  }, [items.length])

  if (!items.length) return null
  return (
    <Stack
      as="section"
      aria-label="Notifications"
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
              onClick={() => setItems((current) => current.filter((item) => item.id !== toast.id))}
            >
              ✕
            </Button>
          ) : null}
        </Box>
      ))}
    </Stack>
  )
}
