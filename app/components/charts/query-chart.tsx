import { chakra } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { HStack } from '~/components/ui/stack'
import { Form, useSubmit } from '@remix-run/react'
import { lazy, Suspense, type FormEvent } from 'react'
import { ClientOnly } from 'remix-utils/client-only'
import { Button } from '~/components/ui/button'
import { Link } from '~/components/ui/link'
import { withBase } from '~/utils/base-path'
import { formatNumber } from '~/utils/format-number'
import {
  CHART_FIELDS,
  CHART_KIND_LABELS,
  CHART_KINDS,
  CHART_TAB,
  type ChartColumn,
  type ChartData,
} from '~/utils/chart-spec'

// Plotly (about 400 KB gzipped) is its own chunk, fetched only when a chart is on screen.
const QueryChartPlot = lazy(() => import('./query-chart-plot.client'))

const controlsCss = {
  '& label, & legend': { display: 'block', fontSize: 'sm', fontWeight: 'medium', mb: '1' },
  '& select': {
    height: '9',
    px: '2',
    borderWidth: '1px',
    borderColor: 'border',
    rounded: 'l2',
    bg: 'bg',
    fontSize: 'sm',
    maxWidth: '16rem',
  },
  '& fieldset': { borderWidth: '0', p: '0', m: '0', minWidth: 0 },
  '& [data-checks]': {
    display: 'flex',
    flexWrap: 'wrap',
    gap: '1 3',
    fontSize: 'sm',
    minHeight: '9',
    alignItems: 'center',
  },
  '& [data-checks] label': { display: 'inline-flex', gap: '1', fontWeight: 'normal', mb: '0', alignItems: 'center' },
} as const

/** What the Chart tab shows: the result's columns, and the chart the URL asks for (or the console picked). */
export type QueryChartProps = {
  columns: ChartColumn[]
  data: ChartData | null
  /** The server's SVG of the same chart: the chart without scripts, and until Plotly has loaded. */
  svg: string | null
  /** The result page's search (the SQL, options, parameters, run): the controls and links keep it. */
  search: string
  /** The UI's row cap, for the note on a result it cut. */
  rowCap: number
}

/**
 * A result's chart: controls (a GET form: type, x, y and split, in the URL), then the chart, a
 * Plotly plot with scripts over the server's SVG of the same series, which is the chart without
 * them. Links open the data as a table (the Results tab) and the chart as an SVG image.
 */
export function QueryChart({ columns, data, svg, search, rowCap }: QueryChartProps) {
  const base = new URLSearchParams(search)
  for (const name of [...CHART_FIELDS, 'tab', 'page']) base.delete(name)
  const tableParams = new URLSearchParams(base)
  const imageParams = new URLSearchParams(search)
  imageParams.delete('tab')
  imageParams.delete('page')
  if (data) {
    for (const name of CHART_FIELDS) imageParams.delete(name)
    imageParams.set('chart', data.spec.kind)
    imageParams.set('x', data.spec.x)
    for (const y of data.spec.y) imageParams.append('y', y)
    imageParams.set('split', data.spec.split ?? '')
  }
  if (!data || !svg) {
    return (
      <Box borderWidth="1px" rounded="md" bg="bg" p="6" color="fg.muted" role="status">
        This result has no number column to draw: a chart needs one, with a date or time, a category or another number
        beside it.
      </Box>
    )
  }
  const notes = [
    data.isCapped
      ? `The chart covers the first ${formatNumber(rowCap)} rows: the query UI is limited ` +
        `to ${formatNumber(rowCap)} rows, and the result was cut.`
      : null,
    data.hiddenSeries
      ? `${data.hiddenSeries} more series are not drawn (the ${data.series.length} largest are).`
      : null,
    data.skippedRows ? `${formatNumber(data.skippedRows)} rows without a value on an axis are left out.` : null,
  ].filter(Boolean)
  const svgBox = <Box data-testid="chart-svg" maxW="48rem" color="fg" dangerouslySetInnerHTML={{ __html: svg }} />
  return (
    <Box>
      <ChartControls columns={columns} data={data} hidden={base} />
      <chakra.figure m="0" mt="3" aria-labelledby="chart-caption">
        <ClientOnly fallback={svgBox}>
          {() => (
            <Suspense fallback={svgBox}>
              <QueryChartPlot data={data} />
            </Suspense>
          )}
        </ClientOnly>
        <chakra.figcaption id="chart-caption" fontSize="sm" mt="2">
          <Text as="span" fontWeight="medium">
            {CHART_KIND_LABELS[data.spec.kind]} chart: {data.title}
          </Text>
          {notes.map((note) => (
            <Text key={note} color="fg.muted" role={data.isCapped ? 'status' : undefined}>
              {note}
            </Text>
          ))}
        </chakra.figcaption>
        <HStack gap="4" fontSize="sm" mt="1" wrap="wrap">
          <Link href={withBase(`/result?${tableParams}#result`)}>The data as a table</Link>
          <Link href={withBase(`/resources/query-chart?${imageParams}`)}>The chart as an SVG image</Link>
        </HStack>
      </chakra.figure>
    </Box>
  )
}

/** The chart's type, x, y and split: a GET form to the same result, submitted on change with scripts. */
function ChartControls({
  columns,
  data,
  hidden,
}: {
  columns: ChartColumn[]
  data: ChartData
  hidden: URLSearchParams
}) {
  const submit = useSubmit()
  const { spec } = data
  const numbers = columns.filter((column) => column.kind === 'number')
  const onChange = (event: FormEvent<HTMLFormElement>) => {
    submit(event.currentTarget, { preventScrollReset: true })
  }
  return (
    <Form method="get" action="/result" aria-label="Chart" onChange={onChange} preventScrollReset>
      {[...hidden].map(([name, value], index) => (
        <input key={`${name}-${index}`} type="hidden" name={name} value={value} />
      ))}
      <input type="hidden" name="tab" value={CHART_TAB} />
      <HStack gap="4" align="end" wrap="wrap" css={controlsCss}>
        <div>
          <label htmlFor="chart-kind">Chart type</label>
          <select id="chart-kind" name="chart" defaultValue={spec.kind} key={`kind-${spec.kind}`}>
            {CHART_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {CHART_KIND_LABELS[kind]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="chart-x">X axis</label>
          <select id="chart-x" name="x" defaultValue={spec.x} key={`x-${spec.x}`}>
            {columns.map((column) => (
              <option key={column.name} value={column.name}>
                {column.name} ({column.type})
              </option>
            ))}
          </select>
        </div>
        <fieldset key={`y-${spec.y.join(',')}`}>
          <legend>Y axis</legend>
          <div data-checks="">
            {numbers.map((column) => (
              <label key={column.name}>
                <input type="checkbox" name="y" value={column.name} defaultChecked={spec.y.includes(column.name)} />
                {column.name}
              </label>
            ))}
          </div>
        </fieldset>
        <div>
          <label htmlFor="chart-split">Split by</label>
          <select id="chart-split" name="split" defaultValue={spec.split ?? ''} key={`split-${spec.split}`}>
            <option value="">None</option>
            {columns
              .filter((column) => column.name !== spec.x && !spec.y.includes(column.name))
              .map((column) => (
                <option key={column.name} value={column.name}>
                  {column.name}
                </option>
              ))}
          </select>
        </div>
        <Button type="submit" variant="outline" size="sm" h="9">
          Show chart
        </Button>
      </HStack>
    </Form>
  )
}
