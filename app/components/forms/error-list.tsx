import { Box } from '@chakra-ui/react'

/** The messages under a field or form; `id` is what the input's aria-describedby points to. */
export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  const messages = (errors ?? []).filter(Boolean)
  return (
    <Box id={id} minH="0" color="fg.error" fontSize="sm" mt={messages.length ? '1' : '0'}>
      {messages.length ? (
        <Box as="ul" listStyleType="none" m="0" p="0">
          {messages.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </Box>
      ) : null}
    </Box>
  )
}
