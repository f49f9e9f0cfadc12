import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Box, Text } from '~/components/ui/box'
import { HStack, Stack } from '~/components/ui/stack'
import { Button } from '~/components/ui/button'
import { Heading } from '~/components/ui/heading'
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useLocation } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { getOrgSummary } from '~/api/orgs.server'
import { listLabelValues } from '~/api/health.server'
import { FormErrors } from '~/components/forms/form-errors'
import { SelectField } from '~/components/forms/select-field'
import { SubmitButton } from '~/components/forms/submit-button'
import { InlineAlert } from '~/components/layout/inline-alert'
import type { RouteHandle } from '~/utils/handle'
import { summaryCards, type SummaryCard } from '../__summary-cards'
import { formatNumber } from '~/utils/format-number'
import { LiveToggle } from './__live-toggle'
import { loadPanel, PANELS } from './__panels.server'
import { formatUtc, resolveRange } from './__range'
import { CountsFilterSchema } from './__range-schemas'
import { RangeFields } from './__range-fields'
import type { SeriesPanelData } from './__series'
import { SeriesPanel } from './__series-panel'
import { settle } from '~/api/policies.server'
import { useLazySchemaForm } from '~/components/forms/use-lazy-schema-form'
import { routeErrorBoundary } from '~/components/layout/route-error'
import { defineCss } from '~/components/ui/plain'

export const handle: RouteHandle = { docsTopic: 'system health' }

/**
 * The org summary's figures that hold whatever the range (now, not over a window): the summary's
 * fixed-window ones ("last hour", "last 5 minutes") would contradict the chosen range, so the range's
 * own totals, from the panels, stand in for them.
 */
const SUMMARY_KEYS = ['active_queries', 'total_rows', 'compressed_data_size', 'compression_ratio']

/** "Requests in the range": each panel's total over the chosen range, as a summary figure. */
function rangeFigures(panels: SeriesPanelData[]): SummaryCard[] {
  return panels
    .filter((panel) => panel.error === null)
    .map((panel) => ({
      key: `range_${panel.id}`,
      label: `${panel.unit[0]!.toUpperCase()}${panel.unit.slice(1)} in the range`,
      value: panel.total,
      text: formatNumber(panel.total),
    }))
}

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const now = Date.now()
  const submission = parseWithZod(new URL(request.url).searchParams, { schema: CountsFilterSchema })
  const [services, pools, summary] = await Promise.all([
    settle(() => listLabelValues(api, 'service')),
    settle(() => listLabelValues(api, 'pool')),
    settle(() => getOrgSummary(api)),
  ])
  // the values the counters carry, plus the one asked for (so a deep link keeps its filter)
  const withWanted = (known: string[] | null, wanted: unknown) =>
    [...new Set([...(known ?? []), ...(typeof wanted === 'string' && wanted ? [wanted] : [])])].sort()
  const serviceOptions = withWanted(services.value, submission.payload.service)
  const poolOptions = withWanted(pools.value, submission.payload.pool)
  const figures: SummaryCard[] = summary.value
    ? summaryCards(summary.value).activity.filter((card) => SUMMARY_KEYS.includes(card.key))
    : []
  const isLive = new URL(request.url).searchParams.get('live') === '1'
  const common = {
    services: serviceOptions,
    pools: poolOptions,
    summary: { figures, error: summary.error },
    updatedAt: now,
    isLive,
  }

  if (submission.status !== 'success') {
    return { ...common, result: submission.reply(), filters: null, range: null, panels: [] as SeriesPanelData[] }
  }
  const range = resolveRange(submission.value, now)
  const service = submission.value.service || undefined
  const pool = submission.value.pool || undefined
  const panels = await Promise.all(PANELS.map((panel) => loadPanel(api, panel, range, { service, pool })))
  return {
    ...common,
    summary: { ...common.summary, figures: [...rangeFigures(panels), ...figures] },
    result: undefined,
    filters: {
      range: submission.value.range,
      from: submission.value.from ?? '',
      to: submission.value.to ?? '',
      service: service ?? '',
      pool: pool ?? '',
    },
    range: { label: range.label, start: range.start, end: range.end, stepSeconds: range.stepSeconds },
    panels,
  }
}

export default function SystemHealthCountsRoute() {
  const data = useLoaderData<typeof loader>()
  const location = useLocation()
  const filterKey = new URLSearchParams(
    [...new URLSearchParams(location.search)].filter(([key]) => key !== 'live'),
  ).toString()
  return (
    <Stack gap="5">
      <CountsFilterForm key={filterKey} services={data.services} pools={data.pools} />
      {data.range ? (
        <HStack justify="space-between" wrap="wrap" gap="2">
          <Text fontSize="sm" color="fg.muted">
            {data.range.label} · {formatUtc(data.range.start)} to {formatUtc(data.range.end)} ·{' '}
            {intervalLabel(data.range.stepSeconds)} intervals
          </Text>
          <HStack gap="3">
            <LiveToggle isLive={data.isLive} />
            <Button asChild size="xs" variant="outline">
              <Link to={`${location.pathname}${location.search}`} preventScrollReset>
                Refresh
              </Link>
            </Button>
          </HStack>
        </HStack>
      ) : (
        <Box role="status" color="fg.muted" fontSize="sm">
          Fix the time range to see the counts.
        </Box>
      )}
      <SummaryFigures figures={data.summary.figures} error={data.summary.error} />
      {data.panels.length ? (
        <Box display="grid" gap="4" gridTemplateColumns={{ base: 'minmax(0, 1fr)', xl: 'repeat(2, minmax(0, 1fr))' }}>
          {data.panels.map((panel) => (
            <SeriesPanel key={panel.id} panel={panel} withSeconds={(data.range?.stepSeconds ?? 60) < 60} />
          ))}
        </Box>
      ) : null}
    </Stack>
  )
}

function intervalLabel(seconds: number): string {
  return seconds % 60 === 0 ? `${seconds / 60}-minute` : `${seconds}-second`
}

// The filter schema comes after hydration (decision 077): zod stays out of the tab's first load.
const loadCountsFilterSchema = () => import('./__range-schemas').then((module) => module.CountsFilterSchema)

function CountsFilterForm({ services, pools }: { services: string[]; pools: string[] }) {
  const data = useLoaderData<typeof loader>()
  const [form, fields] = useLazySchemaForm(loadCountsFilterSchema, {
    id: 'counts-filters',
    lastResult: data.result,
    defaultValue: data.filters ?? undefined,
  })
  return (
    <Form method="get" {...getFormProps(form)} aria-label="Counts filters">
      <FormErrors id={form.errorId} errors={form.errors} />
      {data.isLive ? <input type="hidden" name="live" value="1" /> : null}
      <HStack gap="4" align="flex-start" wrap="wrap">
        <Box minW="44">
          <SelectField
            meta={fields.service}
            label="Service"
            placeholder="All services"
            options={services.map((service) => ({ value: service, label: service }))}
          />
        </Box>
        <Box minW="44">
          <SelectField
            meta={fields.pool}
            label="Pool"
            placeholder="All pools"
            options={pools.map((pool) => ({ value: pool, label: pool }))}
          />
        </Box>
        <RangeFields range={fields.range} from={fields.from} to={fields.to} />
        <Box pt="6">
          <SubmitButton size="sm">Apply</SubmitButton>
        </Box>
      </HStack>
    </Form>
  )
}

const figuresCss = defineCss({
  listStyleType: 'none',
  m: '0',
  p: '0',
  display: 'grid',
  gap: '3',
  gridTemplateColumns: { base: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' },
  '& > li': {
    bg: 'bg',
    borderWidth: '1px',
    borderColor: 'border',
    rounded: 'md',
    p: '3',
    display: 'flex',
    flexDirection: 'column',
    gap: '0.5',
  },
  '& [data-label]': { fontSize: 'xs', color: 'fg.muted' },
  '& [data-value]': { fontSize: 'xl', fontWeight: 'semibold', lineHeight: 'short' },
} as const)

function SummaryFigures({ figures, error }: { figures: SummaryCard[]; error: string | null }) {
  return (
    <Box as="section" aria-labelledby="summary-heading">
      <Heading as="h2" id="summary-heading" size="sm" mb="2">
        Summary
      </Heading>
      {/* the range's own totals show even when the org summary could not be read */}
      {error ? <InlineAlert>{error}</InlineAlert> : null}
      {figures.length ? (
        <Box as="ul" css={figuresCss} mt={error ? '2' : '0'}>
          {figures.map((figure) => (
            <li key={figure.key}>
              <span data-label="">{figure.label}</span>
              <span data-value="">{figure.text}</span>
            </li>
          ))}
        </Box>
      ) : error ? null : (
        <Text fontSize="sm" color="fg.muted">
          The cluster reports no activity figures.
        </Text>
      )}
    </Box>
  )
}

export const meta: MetaFunction = () => [{ title: 'Counts · System health · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({ title: 'The counts could not be shown' })
