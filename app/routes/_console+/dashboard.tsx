import { Box, Heading, Link as ChakraLink, SimpleGrid, Stack, Stat, Text } from '@chakra-ui/react'
import { redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData, useRouteError } from '@remix-run/react'
import { getOrgSummary, requireApi } from '~/api/client.server'
import { ClusterError } from '~/api/errors.server'
import { errorMessage } from '~/utils/error-message'
import type { RouteHandle } from '~/utils/handle'
import { loginUrlFor, logoutHeaders } from '~/utils/session.server'
import { summaryCards, type SummaryCard } from './__summary-cards'

export const handle: RouteHandle = { docsTopic: 'system health' }

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  try {
    const summary = await getOrgSummary(request)
    return { cards: summaryCards(summary ?? {}), error: null, orgId: api.orgId }
  } catch (error) {
    if (!(error instanceof ClusterError)) throw error
    if (error.status === 401) throw redirect(loginUrlFor(request), { headers: await logoutHeaders(request) })
    // The start page stays usable when the summary fails: the failure shows in its place.
    return { cards: [] as SummaryCard[], error: error.message, orgId: api.orgId }
  }
}

export default function DashboardRoute() {
  const { cards, error } = useLoaderData<typeof loader>()
  return (
    <Stack gap="4">
      <Heading as="h1" size="lg">
        Dashboard
      </Heading>
      {error ? (
        <Box role="alert" bg="red.subtle" color="red.fg" borderWidth="1px" borderColor="red.muted" rounded="md" p="4">
          <Text fontWeight="medium">The organization summary could not be loaded.</Text>
          <Text>{error}</Text>
        </Box>
      ) : cards.length ? (
        <SimpleGrid as="ul" listStyleType="none" columns={{ base: 1, sm: 2, lg: 4 }} gap="4" aria-label="Organization summary">
          {cards.map((card) => (
            <Box as="li" key={card.key} bg="bg" borderWidth="1px" rounded="md" p="4">
              <Stat.Root>
                <Stat.Label>{card.label}</Stat.Label>
                <Stat.ValueText>{card.value.toLocaleString('en-US')}</Stat.ValueText>
                {card.detail ? <Stat.HelpText>{card.detail}</Stat.HelpText> : null}
              </Stat.Root>
              {card.href ? (
                <ChakraLink asChild color="blue.600" fontSize="sm" mt="2">
                  <Link to={card.href} aria-label={`View ${card.label.toLowerCase()}`}>
                    View
                  </Link>
                </ChakraLink>
              ) : null}
            </Box>
          ))}
        </SimpleGrid>
      ) : (
        <Box bg="bg" borderWidth="1px" rounded="md" p="8" textAlign="center" color="fg.muted" role="status">
          <Text mb="2">Nothing to summarise yet: this organization has no resources.</Text>
          <ChakraLink asChild color="blue.600">
            <Link to="/data/new-table">Create a table</Link>
          </ChakraLink>
        </Box>
      )}
    </Stack>
  )
}

export const meta: MetaFunction = () => [{ title: 'Dashboard · Cluster Console' }]

export function ErrorBoundary() {
  const error = useRouteError()
  return (
    <Box role="alert" bg="bg" borderWidth="1px" rounded="md" p="6">
      <Heading as="h1" size="md" mb="2">
        The dashboard could not be shown
      </Heading>
      <Text>{errorMessage(error)}</Text>
    </Box>
  )
}
