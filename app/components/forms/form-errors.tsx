import { Box } from '@chakra-ui/react'

/** The form's general errors (non_field_errors, detail, …) in an alert box; nothing when there are none. */
export function FormErrors({ id, errors }: { id?: string; errors?: string[] | null }) {
  const messages = (errors ?? []).filter(Boolean)
  return (
    <Box id={id} role={messages.length ? 'alert' : undefined}>
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
