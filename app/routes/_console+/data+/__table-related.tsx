import { Box, Text } from '~/components/ui/box'
import { HStack } from '~/components/ui/stack'
import { Heading } from '~/components/ui/heading'
import { Link } from '@remix-run/react'
import { DataTable, type Column } from '~/components/data-table/data-table'
import { InlineAlert } from '~/components/layout/inline-alert'
import { tableUrl } from './__table-url'
import { CreateLink } from '~/components/layout/create-link'
import type { PartRead } from '~/api/part-read.server'
import { DeniedNote } from './__table-denied'
type ViewRow = { uuid: string; name: string; columns: number }
type SummaryRow = { uuid: string; name: string; projectId: string }

/** The table's views, each linking to its edit page, and "New view". */
export function TableViewsPanel({
  views,
  tableId,
  projectId,
  tableName,
}: {
  views: PartRead<ViewRow[]>
  tableId: string
  projectId: string
  tableName: string
}) {
  const columns: Column<ViewRow>[] = [
    {
      key: 'name',
      header: 'View',
      isRowHeader: true,
      cell: (row) => <Link to={`/data/tables/${tableId}/view/edit/${row.uuid}?project=${projectId}`}>{row.name}</Link>,
    },
    { key: 'columns', header: 'Output columns', cell: (row) => row.columns },
  ]
  return (
    <Box as="section" aria-labelledby="views-heading" id="views" scrollMarginTop="20">
      <HStack justify="space-between" mb="2">
        <Heading as="h2" id="views-heading" size="md">
          Views
        </Heading>
        <CreateLink to={`/data/new-view?table=${projectId}/${tableId}`} variant="outline">
          New view
        </CreateLink>
      </HStack>
      {views.value ? (
        <DataTable
          caption={`Views of ${tableName}`}
          columns={columns}
          rows={views.value}
          rowKey={(row) => row.uuid}
          empty={<Text>No views yet: the table gets its auto_view when its first transform is published.</Text>}
        />
      ) : views.denied ? (
        <DeniedNote what="the views of this table" />
      ) : (
        <InlineAlert title="The views could not be loaded">{views.error}</InlineAlert>
      )}
    </Box>
  )
}

/** The summary tables fed by this table, each linking to its page, and "New summary table". */
export function TableSummariesPanel({
  summaries,
  tableId,
  projectId,
}: {
  summaries: PartRead<SummaryRow[]>
  tableId: string
  projectId: string
}) {
  return (
    <Box as="section" aria-labelledby="summaries-heading" id="summaries">
      <HStack justify="space-between" mb="2">
        <Heading as="h2" id="summaries-heading" size="md">
          Summary tables fed by this table
        </Heading>
        <CreateLink to={`/data/new-summary-table?parent=${projectId}/${tableId}`} variant="outline">
          New summary table
        </CreateLink>
      </HStack>
      {summaries.value ? (
        summaries.value.length ? (
          <HStack as="ul" wrap="wrap" gap="4" listStyleType="none">
            {summaries.value.map((row) => (
              <li key={row.uuid}>
                <Link to={tableUrl(row.uuid, row.projectId)}>{row.name}</Link>
              </li>
            ))}
          </HStack>
        ) : (
          <Text color="fg.muted">None.</Text>
        )
      ) : summaries.denied ? (
        <DeniedNote what="the summary tables fed by this table" />
      ) : (
        <InlineAlert title="The summary tables could not be loaded">{summaries.error}</InlineAlert>
      )}
    </Box>
  )
}
