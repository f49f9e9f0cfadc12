import { Box, Text } from '~/components/ui/box'
import { Heading } from '~/components/ui/heading'
import { Link as ChakraLink } from '~/components/ui/link'
import { List } from '~/components/ui/list'
import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLocation } from '@remix-run/react'
import { requireSession } from '~/utils/session.server'

/** Any path no page claims: a 404 inside the shell (after the session check, like every console page). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireSession(request)
  throw data({ message: '404 Error: Not Found.', status: 404 }, { status: 404, statusText: 'Not Found' })
}

export default function NotFoundRoute() {
  return null
}

/**
 * A page that does not exist is not a failure of the cluster or the console: said plainly, in the
 * page's own colours, with the ways on (issue 15: a red "404 Error" read as a server error).
 */
export function ErrorBoundary() {
  const { pathname } = useLocation()
  return (
    <Box bg="bg" borderWidth="1px" rounded="lg" p="6" maxW="3xl" role="status">
      <Heading as="h1" size="md" mb="2">
        Page not found
      </Heading>
      <Text mb="3">
        The console has no page at <code>{pathname}</code>. The link may be old, or the page may not be part of this
        console yet (404).
      </Text>
      <Text mb="1">Where to go from here:</Text>
      <List.Root ps="5">
        {[
          ['/dashboard', 'Dashboard'],
          ['/data/tables', 'Data: tables'],
          ['/queries', 'Query'],
          ['/support', 'Support'],
        ].map(([to, label]) => (
          <List.Item key={to}>
            <ChakraLink asChild color="link">
              <Link to={to!}>{label}</Link>
            </ChakraLink>
          </List.Item>
        ))}
      </List.Root>
    </Box>
  )
}

export const meta: MetaFunction = () => [{ title: 'Not found · Cluster Console' }]
