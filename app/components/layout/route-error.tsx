import { Box, Text } from '~/components/ui/box'
import { Heading } from '~/components/ui/heading'
import { Link as ChakraLink } from '~/components/ui/link'
import { Link, useRouteError } from '@remix-run/react'
import { errorMessage, tryAgain as tryAgainLink } from '~/utils/error-message'

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
 * The one route error boundary (issue 34): what a page says when it cannot render, from the few
 * things that differ between pages, its title, the heading level (2 under a section's own h1) and
 * where to go from there: a fixed link (`back`), or `tryAgain`, the page itself, offered unless the
 * error was a 403 (trying again would not help). A route exports
 * `export const ErrorBoundary = routeErrorBoundary({ title: 'The roles could not be loaded', level: 2, tryAgain: '/security/roles' })`.
 * (The boundary cannot read its own route's `handle`: React Router gives an error boundary no public
 * way to know which match it belongs to, so the route names these where it exports the boundary.)
 */
export function routeErrorBoundary({
  title,
  level = 1,
  back,
  tryAgain,
}: {
  title: string
  level?: 1 | 2 | 3
  back?: { to: string; label: string }
  tryAgain?: string
}) {
  return function ErrorBoundary() {
    const error = useRouteError()
    return (
      <ErrorPanel
        level={level}
        title={title}
        message={errorMessage(error)}
        back={tryAgain ? tryAgainLink(error, tryAgain) : back}
      />
    )
  }
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
