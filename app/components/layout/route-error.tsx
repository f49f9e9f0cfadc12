import { Box, Heading, Text } from '@chakra-ui/react'
import { useRouteError } from '@remix-run/react'
import { errorMessage } from '~/utils/error-message'

/**
 * A route's ErrorBoundary body: the catalogue's message (from `data({ message }, status)` thrown by
 * loadFromCluster/replyFromCluster), never a stack. Console routes can re-export it:
 * `export { RouteErrorBoundary as ErrorBoundary } from '~/components/layout/route-error'`.
 */
export function RouteErrorBoundary() {
  const error = useRouteError()
  return <ErrorPanel message={errorMessage(error)} />
}

/** The error panel shown in the main area. */
export function ErrorPanel({ message, title = 'Something went wrong' }: { message: string; title?: string }) {
  return (
    <Box role="alert" bg="bg" borderWidth="1px" borderColor="red.muted" rounded="lg" p="6" maxW="3xl">
      <Heading as="h1" size="md" mb="2" color="red.fg">
        {title}
      </Heading>
      <Text>{message}</Text>
    </Box>
  )
}
