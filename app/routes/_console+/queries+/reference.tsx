import { Box, chakra, Heading, Stack, Text } from '@chakra-ui/react'
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData, useRouteError } from '@remix-run/react'
import { requireApi, type ClusterApi } from '~/api/client.server'
import { dictionarySqlName, listDictionaries } from '~/api/dictionaries.server'
import { listFunctions } from '~/api/functions.server'
import { listProjectsWithTables } from '~/api/tables.server'
import { listTransforms } from '~/api/transforms.server'
import { DataTable, type Column } from '~/components/data-table/data-table'
import { ErrorPanel } from '~/components/layout/route-error'
import { errorMessage } from '~/utils/error-message'
import { loadFromCluster } from '~/api/policies.server'
import type { RouteHandle } from '~/utils/handle'
import { PageHeader } from '~/components/layout/page-header'
import { QueryTabs } from './__query-editor'
import { QUERY_OPTION_GROUPS, type QueryOption } from './__query-options'

export const handle: RouteHandle = { docsTopic: 'query' }

type ReferenceColumn = { name: string; type: string; isPrimary: boolean }
type ReferenceTable = { uuid: string; project: string; name: string; columns: ReferenceColumn[] }
type ReferenceFunction = { project: string; name: string; sql: string; description: string }
/** A dictionary as SQL sees it: the name dictGet takes, its key and its attributes. */
type ReferenceDictionary = { project: string; name: string; sqlName: string; key: string[]; attributes: string[]; editUrl: string }

/** A table's columns: every column of its transforms' output (the first transform's type wins). */
async function tableColumns(api: ClusterApi, projectId: string, tableId: string): Promise<ReferenceColumn[]> {
  const transforms = await listTransforms(api, projectId, tableId)
  transforms.sort((a, b) => Number(Boolean(b.settings?.is_default)) - Number(Boolean(a.settings?.is_default)))
  const columns = new Map<string, ReferenceColumn>()
  for (const transform of transforms) {
    for (const column of transform.settings?.output_columns ?? []) {
      if (!column?.name || columns.has(column.name) || column.datatype?.ignore) continue
      columns.set(column.name, { name: column.name, type: String(column.datatype?.type ?? ''), isPrimary: Boolean(column.datatype?.primary) })
    }
  }
  return [...columns.values()]
}

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const tableId = url.searchParams.get('table_id')
  const { tables, functions, dictionaries } = await loadFromCluster(async () => {
    const projects = await listProjectsWithTables(api)
    const [tables, functions, dictionaries] = await Promise.all([
      Promise.all(
        projects.flatMap(({ project, tables }) =>
          tables.map(async (table): Promise<ReferenceTable> => ({
            uuid: table.uuid,
            project: project.name,
            name: table.name,
            columns: await tableColumns(api, project.uuid, table.uuid),
          })),
        ),
      ),
      Promise.all(
        projects.map(async ({ project }) => {
          const items = await listFunctions(api, project.uuid)
          return items.map((fn): ReferenceFunction => ({ project: project.name, name: fn.name, sql: fn.sql ?? '', description: fn.description ?? '' }))
        }),
      ),
      Promise.all(
        projects.map(async ({ project }) =>
          (await listDictionaries(api, project.uuid)).map((dictionary): ReferenceDictionary => {
            const key = dictionary.settings?.primary_key ?? []
            return {
              project: project.name,
              name: dictionary.name,
              sqlName: dictionarySqlName(project.name, dictionary.name),
              key,
              attributes: (dictionary.settings?.output_columns ?? []).map((column) => column.name).filter((name) => !key.includes(name)),
              editUrl: `/data/dictionaries/${project.uuid}/${dictionary.uuid}/edit-dictionary`,
            }
          }),
        ),
      ),
    ])
    return { tables, functions: functions.flat(), dictionaries: dictionaries.flat() }
  })
  // The table asked for (`?table_id=`) comes first and open.
  tables.sort((a, b) => Number(b.uuid === tableId) - Number(a.uuid === tableId))
  return { tables, functions, dictionaries, tableId, sql: url.searchParams.get('data') ?? '' }
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
    cell: (dictionary) => <code>{`dictGet('${dictionary.sqlName}', '${dictionary.attributes[0] ?? 'attribute'}', ${dictionary.key.length > 1 ? `(${dictionary.key.join(', ')})` : (dictionary.key[0] ?? 'key')})`}</code>,
  },
  { key: 'attributes', header: 'Attributes', cell: (dictionary) => dictionary.attributes.join(', ') || '—' },
]

const OPTION_COLUMNS: Column<QueryOption>[] = [
  { key: 'label', header: 'Option', isRowHeader: true, cell: (option) => option.label },
  { key: 'name', header: 'Setting', cell: (option) => <code>{option.name}</code> },
  { key: 'description', header: 'Description', cell: (option) => option.description },
]

export default function QueryReferenceRoute() {
  const { tables, functions, dictionaries, tableId, sql } = useLoaderData<typeof loader>()
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
            <details key={table.uuid} open={table.uuid === tableId || tables.length <= 3}>
              <summary>
                {table.project}.{table.name}
              </summary>
              <Box px="3" pb="2">
                <Text mb="1">
                  <Link to={`/queries?table_id=${table.uuid}`}>Query this table</Link>
                </Text>
                <DataTable
                  caption={`Columns of ${table.project}.${table.name}`}
                  columns={COLUMN_COLUMNS}
                  rows={table.columns}
                  rowKey={(column) => column.name}
                  empty="No columns yet: the table has no transform."
                />
              </Box>
            </details>
          ))
        ) : (
          <Text data-muted="">
            No tables yet. <Link to="/data/new-table">Create a table</Link>
          </Text>
        )}
      </Box>

      <Box as="section" aria-labelledby="functions-heading">
        <Heading as="h2" id="functions-heading" size="md" mb="2">
          Functions
        </Heading>
        <DataTable
          caption="Custom functions"
          columns={FUNCTION_COLUMNS}
          rows={functions}
          rowKey={(fn) => `${fn.project}.${fn.name}`}
          empty="No custom functions yet. The engine's own SQL functions are always available."
        />
      </Box>

      <Box as="section" aria-labelledby="dictionaries-heading">
        <Heading as="h2" id="dictionaries-heading" size="md" mb="2">
          Dictionaries
        </Heading>
        <DataTable
          caption="Dictionaries"
          columns={DICTIONARY_COLUMNS}
          rows={dictionaries}
          rowKey={(dictionary) => dictionary.sqlName}
          empty={
            <>
              No dictionaries yet. <Link to="/data/dictionaries/new-data-dictionary">Create a dictionary</Link>
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
            <DataTable caption={group.title} columns={OPTION_COLUMNS} rows={group.options} rowKey={(option) => option.name} empty="No options." />
          </Box>
        ))}
      </Box>
    </Stack>
  )
}

export const meta: MetaFunction = () => [{ title: 'Query reference · Cluster Console' }]

export function ErrorBoundary() {
  const error = useRouteError()
  return <ErrorPanel title="The query reference could not be loaded" message={errorMessage(error)} />
}
