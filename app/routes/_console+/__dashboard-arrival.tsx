import { SimpleGrid } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { Stack } from '~/components/ui/stack'
import { Link } from '@remix-run/react'
import { SparkBars } from '~/components/charts/spark-bars'
import { DataTable, type Column } from '~/components/data-table/data-table'
import { Heading } from '~/components/ui/heading'
import { formatNumber } from '~/utils/format-number'
import type { OrgArrival } from './__dashboard-arrival-values'

function clock(ms: number, withDay = false): string {
  const iso = new Date(ms).toISOString()
  return `${withDay ? `${iso.slice(5, 10)} ` : ''}${iso.slice(11, 16)} UTC`
}

/**
 * The dashboard's "Is data arriving?": rows ingested into the organization per minute (last hour)
 * and per hour (last day) as server-rendered bars, and the busiest tables with links to them.
 */
export function OrgArrivalPanel({ arrival }: { arrival: OrgArrival }) {
  type Busy = OrgArrival['busiest'][number]
  const columns: Column<Busy>[] = [
    { key: 'table', header: 'Table', isRowHeader: true, cell: (row) => <Link to={row.href}>{row.table}</Link> },
    { key: 'hour', header: 'Rows, last hour', cell: (row) => formatNumber(row.lastHour) },
    { key: 'day', header: 'Rows, last day', cell: (row) => formatNumber(row.lastDay) },
  ]
  const minuteLabels = arrival.minutes.map((_, i) => clock(arrival.minuteStart + i * 60_000))
  const hourLabels = arrival.hours.map((_, i) => clock(arrival.hourStart + i * 3_600_000, true))
  return (
    <Box as="section" aria-labelledby="arrival-heading" bg="bg" borderWidth="1px" rounded="md" p="4">
      <Heading as="h2" id="arrival-heading" size="md" mb="3">
        Is data arriving?
      </Heading>
      {arrival.error ? (
        <Text role="status">Ingest figures: {arrival.error}.</Text>
      ) : (
        <Stack gap="4">
          <Text fontSize="sm">
            {formatNumber(arrival.lastHour)} rows ingested in the last hour, {formatNumber(arrival.lastDay)} in the last
            day, into {formatNumber(arrival.tablesWithRows)} {arrival.tablesWithRows === 1 ? 'table' : 'tables'} (the
            cluster&apos;s ingest counter; times in UTC).
          </Text>
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
            <Box>
              <Heading as="h3" size="sm" mb="1">
                Per minute, last hour
              </Heading>
              <SparkBars
                title="Rows ingested per minute over the last hour"
                values={arrival.minutes}
                labels={minuteLabels}
                unit="rows"
                startLabel={minuteLabels[0] ?? ''}
                endLabel="now"
              />
            </Box>
            <Box>
              <Heading as="h3" size="sm" mb="1">
                Per hour, last day
              </Heading>
              <SparkBars
                title="Rows ingested per hour over the last day"
                values={arrival.hours}
                labels={hourLabels}
                unit="rows"
                startLabel={hourLabels[0] ?? ''}
                endLabel="now"
              />
            </Box>
          </SimpleGrid>
          <Box>
            <Heading as="h3" size="sm" mb="2">
              Busiest tables
            </Heading>
            <DataTable
              caption="The tables that took the most rows, last hour first"
              columns={columns}
              rows={arrival.busiest}
              rowKey={(row) => row.table}
              empty={<Text>No table took rows in the last day.</Text>}
            />
          </Box>
        </Stack>
      )}
    </Box>
  )
}
