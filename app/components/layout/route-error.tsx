import { Box, Text } from '@chakra-ui/react'
import { Heading } from '~/components/ui/heading'
import { Link as ChakraLink } from '~/components/ui/link'
import { Link, useRouteError } from '@remix-run/react'
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

/**
 * The error panel shown in the main area: a heading (the page's h1, or `level` 2 under a section's
 * own h1), the message, and optionally a link back (`back`).
 */
export function ErrorPanel({
  message,
  title = 'Something went wrong',
  back,
  level = 1,
}: {
  message: string
  title?: string
  back?: { to: string; label: string }
  level?: 1 | 2 | 3
}) {
  return (
    <Box role="alert" bg="bg" borderWidth="1px" borderColor="red.muted" rounded="lg" p="6" maxW="3xl">
      <Heading as={`h${level}`} size="md" mb="2" color="red.fg">
        {title}
      </Heading>
      <Text>{message}</Text>
      {back ? (
        <ChakraLink asChild color="link" mt="3" display="inline-block">
          <Link to={back.to}>{back.label}</Link>
        </ChakraLink>
      ) : null}
    </Box>
  )
}
