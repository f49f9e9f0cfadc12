import { Box, Text } from '~/components/ui/box'
import { HStack, Stack } from '~/components/ui/stack'
import { Heading } from '~/components/ui/heading'
import { Link as ChakraLink } from '~/components/ui/link'
import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { getOrgSummary } from '~/api/orgs.server'
import { consoleStoreCounts, withoutConsoleStore } from '~/api/console-store.server'
import { countUsersQueries } from '~/api/query-log.server'
import { QUERY_LOG_WINDOW_MINUTES } from '~/utils/query-log-window'
import { settle } from '~/api/policies.server'
import { LoadSampleForm } from '~/components/layout/load-sample-form'
import { PageHeader } from '~/components/layout/page-header'
import { InlineAlert } from '~/components/layout/inline-alert'
import type { RouteHandle } from '~/utils/handle'
import { QUERY_FIGURES, summaryCards, withLogQueryFigures, type SummaryCard } from './__summary-cards'
import { routeErrorBoundary } from '~/components/layout/route-error'
// Is data arriving (issue 51): the org's ingest counter, never a query per table.
import { loadOrgArrival } from './__dashboard-arrival.server'
import { OrgArrivalPanel } from './__dashboard-arrival'
import { defineCss } from '~/components/ui/plain'

export const handle: RouteHandle = { docsTopic: 'system health' }

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  // The start page stays usable when the summary fails: the failure shows in its place.
  const [summary, store, queries, arrival] = await Promise.all([
    settle(() => getOrgSummary(api)),
    settle(() => consoleStoreCounts(api)),
    settle(() => countUsersQueries(api, QUERY_LOG_WINDOW_MINUTES)),
    loadOrgArrival(api),
  ])
  if (summary.error !== null)
    return { resources: [] as SummaryCard[], activity: [] as SummaryCard[], error: summary.error, arrival }
  // the console's own store (saved queries, history) is not the user's data: left out of the counts
  const cards = summaryCards(withoutConsoleStore(summary.value ?? {}, store.value))
  // the query figures as Insights counts them, so the two pages agree (issue 36)
  const coveredMinutes = queries.value?.oldest
    ? Math.max(1, Math.round((Date.now() - Date.parse(queries.value.oldest)) / 60_000))
    : null
  return {
    ...cards,
    activity: withLogQueryFigures(cards.activity, queries.value ?? null, coveredMinutes, QUERY_LOG_WINDOW_MINUTES),
    error: null,
    arrival,
  }
}

export default function DashboardRoute() {
  const { resources, activity, error, arrival } = useLoaderData<typeof loader>()
  // empty: nothing held and nothing ingested; queries run (say `SELECT 1`) do not fill an org
  const isEmpty =
    resources.every((card) => card.value === 0) &&
    activity.every((card) => card.value === 0 || QUERY_FIGURES.includes(card.key))
  return (
    <Stack gap="6">
      <PageHeader title="Dashboard" mb="0" />
      {error ? (
        <InlineAlert title="The organization summary could not be loaded.">{error}</InlineAlert>
      ) : !resources.length && !activity.length ? (
        <Box bg="bg" borderWidth="1px" rounded="md" p="8" textAlign="center" color="fg.muted" role="status">
          <Text>The cluster returned no figures for this organization.</Text>
        </Box>
      ) : (
        <>
          {isEmpty ? (
            <Box bg="bg" borderWidth="1px" rounded="md" p="4" role="status">
              <Text mb="1">This organization has nothing in it yet.</Text>
              <HStack gap="3" wrap="wrap">
                <ChakraLink asChild color="link">
                  <Link to="/data/new-table">Create your first table</Link>
                </ChakraLink>
                <LoadSampleForm />
              </HStack>
            </Box>
          ) : null}
          <CardGroup id="resources" title="Resources" cards={resources} />
          <CardGroup id="activity" title="Activity and storage" cards={activity} />
        </>
      )}
      <OrgArrivalPanel arrival={arrival} />
    </Stack>
  )
}

/** Card styles set once on the list: plain elements inside render far faster on the server than a Chakra component per card. */
const cardsCss = defineCss({
  listStyleType: 'none',
  m: '0',
  p: '0',
  display: 'grid',
  gap: '4',
  gridTemplateColumns: { base: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(4, minmax(0, 1fr))' },
  '& > li': {
    bg: 'bg',
    borderWidth: '1px',
    borderColor: 'border',
    rounded: 'md',
    p: '4',
    display: 'flex',
    flexDirection: 'column',
    gap: '1',
  },
  '& [data-label]': { fontSize: 'sm', color: 'fg.muted' },
  '& [data-value]': { fontSize: '2xl', fontWeight: 'semibold', lineHeight: 'short' },
  '& [data-detail]': { fontSize: 'xs', color: 'fg.muted' },
  '& a': { fontSize: 'sm', color: 'link', textDecoration: 'none', mt: 'auto', _hover: { textDecoration: 'underline' } },
} as const)

function CardGroup({ id, title, cards }: { id: string; title: string; cards: SummaryCard[] }) {
  if (!cards.length) return null
  return (
    <Box as="section" aria-labelledby={`${id}-heading`}>
      <Heading as="h2" id={`${id}-heading`} size="md" mb="3">
        {title}
      </Heading>
      <Box as="ul" css={cardsCss}>
        {cards.map((card) => (
          <li key={card.key}>
            <span data-label="">{card.label}</span>
            <span data-value="">{card.text}</span>
            {card.detail ? <span data-detail="">{card.detail}</span> : null}
            {card.href ? (
              <Link to={card.href} aria-label={`View ${card.label.toLowerCase()}`}>
                View
              </Link>
            ) : null}
          </li>
        ))}
      </Box>
    </Box>
  )
}

export const meta: MetaFunction = () => [{ title: 'Dashboard · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({ title: 'The dashboard could not be shown' })
