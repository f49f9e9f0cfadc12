import { chakra } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { Stack } from '~/components/ui/stack'
import { Heading } from '~/components/ui/heading'
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { DataTable, type Column } from '~/components/data-table/data-table'
import { loadFromCluster } from '~/api/policies.server'
import type { RouteHandle } from '~/utils/handle'
import { PageHeader } from '~/components/layout/page-header'
import { QueryTabs } from './__query-tabs'
import { QUERY_OPTION_GROUPS, type QueryOption } from '~/utils/query-options'
import {
  loadReferenceSchema,
  type SchemaColumn,
  type SchemaDictionary,
  type SchemaFunction,
} from '~/services/query/schema.server'
import { routeErrorBoundary } from '~/components/layout/route-error'

export const handle: RouteHandle = { docsTopic: 'query' }

type ReferenceColumn = SchemaColumn
type ReferenceFunction = SchemaFunction
type ReferenceDictionary = SchemaDictionary

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const tableId = url.searchParams.get('table_id')
  // the table asked for and the org's first tables, not every table (issue 33)
  const { tables, functions, dictionaries, hasMore, catalogProjects } = await loadFromCluster(() =>
    loadReferenceSchema(api, tableId),
  )
  // The table asked for (`?table_id=`) comes first and open.
  const sorted = [...tables].sort((a, b) => Number(b.uuid === tableId) - Number(a.uuid === tableId))
  return {
    tables: sorted,
    hasMore,
    functions,
    dictionaries,
    catalogProjects,
    tableId,
    sql: url.searchParams.get('data') ?? '',
  }
}

const referenceCss = {
  '& details': { borderWidth: '1px', borderColor: 'border', rounded: 'md', bg: 'bg', mb: '2' },
  '& summary': { cursor: 'pointer', px: '3', py: '2', fontWeight: 'medium', fontFamily: 'mono', fontSize: 'sm' },
  '& code': { fontFamily: 'mono', fontSize: 'sm' },
  '& a': { color: 'blue.600', fontSize: 'sm' },
  '& [data-muted]': { color: 'fg.muted' },
} as const

const COLUMN_COLUMNS: Column<ReferenceColumn>[] = [
  { key: 'name', header: 'Column', cell: (column) => <code>{column.name}</code> },
  {
    key: 'type',
    header: 'Type',
    cell: (column) => (
      <>
        {column.type}
        {column.isPrimary ? <span data-muted=""> · primary</span> : null}
      </>
    ),
  },
]

const FUNCTION_COLUMNS: Column<ReferenceFunction>[] = [
  {
    key: 'name',
    header: 'Function',
    isRowHeader: true,
    cell: (fn) => (
      <>
        <code>{fn.name}</code> <span data-muted="">({fn.project})</span>
      </>
    ),
  },
  { key: 'sql', header: 'Definition', cell: (fn) => <code>{fn.sql}</code> },
  { key: 'description', header: 'Description', cell: (fn) => fn.description || '—' },
]

const DICTIONARY_COLUMNS: Column<ReferenceDictionary>[] = [
  {
    key: 'name',
    header: 'Dictionary',
    isRowHeader: true,
    cell: (dictionary) => (
      <>
        <Link to={dictionary.editUrl}>
          <code>{dictionary.sqlName}</code>
        </Link>{' '}
        <span data-muted="">({dictionary.project})</span>
      </>
    ),
  },
  { key: 'key', header: 'Key', cell: (dictionary) => <code>{dictionary.key.join(', ') || '—'}</code> },
  {
    key: 'use',
    header: 'Lookup',
    cell: (dictionary) => (
      <code>
        {`dictGet('${dictionary.sqlName}', '${dictionary.attributes[0] ?? 'attribute'}', ` +
          `${dictionary.key.length > 1 ? `(${dictionary.key.join(', ')})` : (dictionary.key[0] ?? 'key')})`}
      </code>
    ),
  },
  { key: 'attributes', header: 'Attributes', cell: (dictionary) => dictionary.attributes.join(', ') || '—' },
]

const OPTION_COLUMNS: Column<QueryOption>[] = [
  { key: 'label', header: 'Option', isRowHeader: true, cell: (option) => option.label },
  { key: 'name', header: 'Setting', cell: (option) => <code>{option.name}</code> },
  { key: 'description', header: 'Description', cell: (option) => option.description },
]

/** The reference with `tableId`'s columns shown (the SQL being written kept). */
const columnsUrl = (tableId: string, sql: string) =>
  `/queries/reference?${new URLSearchParams({ table_id: tableId, ...(sql ? { data: sql } : {}) })}#table-${tableId}`

export default function QueryReferenceRoute() {
  const { tables, hasMore, functions, dictionaries, catalogProjects, tableId, sql } = useLoaderData<typeof loader>()
  // past a few projects, the functions and dictionaries are those of the projects described above
  const scope = catalogProjects ? (
    // its links sit among words: underlined, so they are told apart by more than their colour (axe link-in-text-block)
    <Text
      data-muted=""
      fontSize="sm"
      mb="2"
      css={{ '& a': { textDecoration: 'underline', textUnderlineOffset: '2px' } }}
    >
      {catalogProjects.length
        ? `Those of ${catalogProjects.length === 1 ? 'project' : 'projects'} ${catalogProjects.join(', ')}, whose tables are listed above.`
        : 'Those of the projects whose tables are listed above.'}{' '}
      Every project’s: <Link to="/data/functions">Functions</Link> · <Link to="/data/dictionaries">Dictionaries</Link>
    </Text>
  ) : null
  return (
    <Stack gap="4" css={referenceCss}>
      <PageHeader title="Query" mb="2" />
      <QueryTabs current="reference" sql={sql} tableId={tableId} />

      <Box as="section" aria-labelledby="tables-heading">
        <Heading as="h2" id="tables-heading" size="md" mb="2">
          Tables
        </Heading>
        {tables.length ? (
          tables.map((table) => (
            <details key={table.uuid} id={`table-${table.uuid}`} open={table.uuid === tableId || tables.length <= 3}>
              <summary>
                {table.project}.{table.name}
              </summary>
              <Box px="3" pb="2">
                <Text mb="1">
                  <Link to={`/queries?table_id=${table.uuid}`}>Query this table</Link>
                </Text>
                {table.columns ? (
                  <DataTable
                    caption={`Columns of ${table.project}.${table.name}`}
                    columns={COLUMN_COLUMNS}
                    rows={table.columns}
                    rowKey={(column) => column.name}
                    empty="No columns yet: the table has no transform."
                  />
                ) : (
                  <Text>
                    <Link to={columnsUrl(table.uuid, sql)}>
                      Show the columns of {table.project}.{table.name}
                    </Link>
                  </Text>
                )}
              </Box>
            </details>
          ))
        ) : (
          <Text data-muted="">
            No tables yet. <Link to="/data/new-table">Create a table</Link>
          </Text>
        )}
        {hasMore ? (
          <Text data-muted="" fontSize="sm">
            The first {tables.length} tables of the org. Any other: find it with the Query page’s table search, then
            open its Reference.
          </Text>
        ) : null}
      </Box>

      <Box as="section" aria-labelledby="functions-heading">
        <Heading as="h2" id="functions-heading" size="md" mb="2">
          Functions
        </Heading>
        {scope}
        <DataTable
          caption="Custom functions"
          columns={FUNCTION_COLUMNS}
          rows={functions}
          rowKey={(fn) => `${fn.project}.${fn.name}`}
          empty={
            catalogProjects
              ? "None in these projects. The engine's own SQL functions are always available."
              : "No custom functions yet. The engine's own SQL functions are always available."
          }
        />
      </Box>

      <Box as="section" aria-labelledby="dictionaries-heading">
        <Heading as="h2" id="dictionaries-heading" size="md" mb="2">
          Dictionaries
        </Heading>
        {scope}
        <DataTable
          caption="Dictionaries"
          columns={DICTIONARY_COLUMNS}
          rows={dictionaries}
          rowKey={(dictionary) => dictionary.sqlName}
          empty={
            <>
              {catalogProjects ? 'None in these projects.' : 'No dictionaries yet.'}{' '}
              <Link to="/data/dictionaries/new-data-dictionary">Create a dictionary</Link>
            </>
          }
        />
      </Box>

      <Box as="section" aria-labelledby="options-heading">
        <Heading as="h2" id="options-heading" size="md" mb="2">
          Query options
        </Heading>
        <Text fontSize="sm" mb="2" data-muted="">
          Set them in the editor's Query options, as URL parameters of the query API, or in the statement's own{' '}
          <chakra.code>SETTINGS</chakra.code> clause.
        </Text>
        {QUERY_OPTION_GROUPS.map((group) => (
          <Box key={group.title} mb="3">
            <Heading as="h3" size="sm" mb="1">
              {group.title}
            </Heading>
            <DataTable
              caption={group.title}
              columns={OPTION_COLUMNS}
              rows={group.options}
              rowKey={(option) => option.name}
              empty="No options."
            />
          </Box>
        ))}
      </Box>
    </Stack>
  )
}

export const meta: MetaFunction = () => [{ title: 'Query reference · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({ title: 'The query reference could not be loaded' })
