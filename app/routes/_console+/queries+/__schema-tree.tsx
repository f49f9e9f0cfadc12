import { Box, chakra, Text } from '@chakra-ui/react'
import { Link } from '@remix-run/react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { tableRef } from '~/utils/sql'

/** What the editor's schema tree and autocomplete know: projects → tables → columns, functions, dictionaries. */
export type SchemaTreeData = {
  projects: { name: string; tables: { uuid: string; name: string; columns: { name: string; type: string }[] }[] }[]
  functions: { project: string; name: string }[]
  dictionaries: string[]
}

/** One autocomplete suggestion; `scope` set means "only after `scope.`" (a project's tables). */
export type SchemaCompletion = { value: string; caption?: string; meta: string; score: number; scope?: string }

/** The suggestions for a schema and the engine's function names. */
export function completionsOf(schema: SchemaTreeData, engineFunctions: string[]): SchemaCompletion[] {
  const items: SchemaCompletion[] = []
  const seenColumns = new Map<string, SchemaCompletion>()
  for (const project of schema.projects) {
    items.push({ value: project.name, meta: 'project', score: 900 })
    for (const table of project.tables) {
      items.push({ value: tableRef(project.name, table.name), meta: 'table', score: 950 })
      items.push({ value: table.name, meta: `table in ${project.name}`, score: 950, scope: project.name })
      for (const column of table.columns) {
        const existing = seenColumns.get(column.name)
        if (existing) {
          if (!existing.meta.endsWith('…')) existing.meta = `${existing.meta.split(' · ')[0]} · …`
          continue
        }
        const item = { value: column.name, caption: column.name, meta: `${column.type} · ${table.name}`, score: 1000 }
        seenColumns.set(column.name, item)
        items.push(item)
        items.push({ value: column.name, meta: column.type, score: 1000, scope: table.name })
      }
    }
  }
  for (const fn of schema.functions)
    items.push({ value: `${fn.name}(`, caption: fn.name, meta: `function · ${fn.project}`, score: 800 })
  for (const dictionary of schema.dictionaries)
    items.push({ value: `'${dictionary}'`, caption: dictionary, meta: 'dictionary', score: 700 })
  for (const name of engineFunctions) items.push({ value: `${name}(`, caption: name, meta: 'function', score: 500 })
  return items
}

const treeCss = {
  fontSize: 'sm',
  '& details details': { ml: '3' },
  '& summary': { cursor: 'pointer', py: '0.5', fontFamily: 'mono', overflowWrap: 'anywhere' },
  '& ul': { listStyleType: 'none', m: 0, pl: '4' },
  '& li': { display: 'flex', gap: '2', alignItems: 'baseline', py: '0.5' },
  '& li small': { color: 'fg.muted', fontSize: 'xs', fontFamily: 'mono' },
  '& button': {
    fontFamily: 'mono',
    textAlign: 'start',
    color: 'blue.600',
    _hover: { textDecoration: 'underline' },
    cursor: 'pointer',
  },
  '& a': { color: 'blue.600', fontSize: 'xs' },
} as const

/**
 * Projects → tables → columns beside the editor. With scripts a click on a column or a table's
 * name inserts it at the editor's cursor; without, each table links to the editor opened on it.
 */
export function SchemaTree({ schema, onInsert }: { schema: SchemaTreeData; onInsert?: (text: string) => void }) {
  const isHydrated = useHydrated()
  const canInsert = isHydrated && Boolean(onInsert)
  const projects = schema.projects.filter((project) => project.tables.length)
  return (
    <chakra.nav
      aria-label="Schema"
      borderWidth="1px"
      rounded="md"
      bg="bg"
      p="2"
      maxH="24rem"
      overflow="auto"
      css={treeCss}
    >
      <Text fontWeight="semibold" fontSize="sm" mb="1">
        Schema
      </Text>
      {projects.length ? (
        projects.map((project) => (
          <details key={project.name}>
            <summary>{project.name}</summary>
            {project.tables.map((table) => {
              const ref = tableRef(project.name, table.name)
              return (
                <details key={table.uuid}>
                  <summary>{table.name}</summary>
                  <ul aria-label={`Columns of ${ref}`}>
                    <li>
                      {canInsert ? (
                        <button type="button" onClick={() => onInsert!(ref)} aria-label={`Insert ${ref}`}>
                          {ref}
                        </button>
                      ) : null}
                      <Link to={`/queries?table_id=${encodeURIComponent(table.uuid)}`} aria-label={`Query ${ref}`}>
                        query
                      </Link>
                    </li>
                    {table.columns.map((column) => (
                      <li key={column.name}>
                        {canInsert ? (
                          <button
                            type="button"
                            onClick={() => onInsert!(column.name)}
                            aria-label={`Insert ${column.name}`}
                          >
                            {column.name}
                          </button>
                        ) : (
                          <code>{column.name}</code>
                        )}
                        <small>{column.type}</small>
                      </li>
                    ))}
                    {table.columns.length ? null : (
                      <li>
                        <small>No columns known (no transform yet)</small>
                      </li>
                    )}
                  </ul>
                </details>
              )
            })}
          </details>
        ))
      ) : (
        <Box color="fg.muted">No tables yet.</Box>
      )}
    </chakra.nav>
  )
}
