import { Box } from '~/components/ui/box'

/** The form's general errors (non_field_errors, detail, …) in an alert box; nothing when there are none. */
export function FormErrors({ id, errors, isFocused }: { id?: string; errors?: string[] | null; isFocused?: boolean }) {
  const messages = (errors ?? []).filter(Boolean)
  const focus = isFocused && messages.length ? { tabIndex: -1, autoFocus: true, outline: 'none' } : {}
  return (
    <Box id={id} role={messages.length ? 'alert' : undefined} {...focus}>
      {messages.length ? (
        <Box bg="red.subtle" color="red.fg" borderWidth="1px" borderColor="red.muted" rounded="md" px="3" py="2" mb="4">
          {messages.map((message) => (
            <Box key={message}>{message}</Box>
          ))}
        </Box>
      ) : null}
    </Box>
  )
}
