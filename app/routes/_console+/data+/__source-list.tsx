import { Box, Text } from '~/components/ui/box'
import { HStack } from '~/components/ui/stack'
import { Heading } from '~/components/ui/heading'
import { Link } from '@remix-run/react'
import { FORM_KIND_LABELS, type FormKind } from '~/schemas/source-values'
import { DataTable, type Column } from '~/components/data-table/data-table'
import { InlineAlert } from '~/components/layout/inline-alert'
import { CreateLink } from '~/components/layout/create-link'

/** A table's ingest source as its table page lists it. */
export type SourceRow = { uuid: string; name: string; kind: FormKind; transform: string; pool: string }

/**
 * The table page's "Ingest sources" panel: each source (kind, transform, pool) linking to its page,
 * and "New ingest source" for this table. `error` is the panel's failure; the page stays.
 */
export function SourcesPanel({
  table,
  project,
  sources,
  error,
}: {
  table: { uuid: string; name: string }
  project: { uuid: string }
  sources: SourceRow[] | null
  error: string | null
}) {
  const columns: Column<SourceRow>[] = [
    {
      key: 'name',
      header: 'Source',
      isRowHeader: true,
      cell: (row) => (
        <Link to={`/data/tables/${table.uuid}/source/edit/${row.kind}/${row.uuid}?project=${project.uuid}`}>
          {row.name}
        </Link>
      ),
    },
    { key: 'kind', header: 'Kind', cell: (row) => FORM_KIND_LABELS[row.kind] },
    { key: 'transform', header: 'Transform', cell: (row) => row.transform || '—' },
    { key: 'pool', header: 'Pool', cell: (row) => row.pool || '—' },
  ]
  return (
    <Box as="section" aria-labelledby="sources-heading">
      <HStack justify="space-between" mb="2">
        <Heading as="h2" id="sources-heading" size="md">
          Ingest sources
        </Heading>
        <CreateLink to={`/data/new-ingest-source?project=${project.uuid}&table=${table.uuid}`} variant="outline">
          New ingest source
        </CreateLink>
      </HStack>
      {error ? (
        <InlineAlert title="The sources could not be listed">{error}</InlineAlert>
      ) : (
        <DataTable
          caption={`Ingest sources of ${table.name}`}
          columns={columns}
          rows={sources ?? []}
          rowKey={(row) => row.uuid}
          empty={
            <Text>
              No Kafka, Kinesis, security-event feed or auto batch source feeds this table. Data can still be sent over
              HTTP: see <a href="#ingest-heading">Send data over HTTP</a> below.
            </Text>
          }
        />
      )}
    </Box>
  )
}
