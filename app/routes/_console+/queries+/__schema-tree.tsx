import { chakra } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { Link, useLocation } from '@remix-run/react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { tableRef } from '~/utils/sql'
import type { SchemaTreeData } from '~/utils/schema-tree'

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

/** Where a link opens the tree at a project (and table) without scripts: the editor, the page's SQL and options kept. */
function useTreeHref() {
  const location = useLocation()
  return (projectId: string, tableId?: string) => {
    const params = new URLSearchParams(location.search)
    for (const key of ['page', 'tab', 'schema_project', 'schema_table']) params.delete(key)
    params.set('schema_project', projectId)
    if (tableId) params.set('schema_table', tableId)
    return `/queries?${params}`
  }
}

/**
 * Projects → tables → columns beside the editor, loaded as they are opened: with scripts opening a
 * project or a table reads its part (`onOpenProject`, `onOpenTable`), without a link opens the page
 * on it. With scripts a click on a column or a table's name inserts it at the editor's cursor;
 * without, each table links to the editor opened on it.
 */
export function SchemaTree({
  schema,
  onInsert,
  onOpenProject,
  onOpenTable,
}: {
  schema: SchemaTreeData
  onInsert?: (text: string) => void
  onOpenProject?: (projectId: string) => void
  onOpenTable?: (projectId: string, tableId: string) => void
}) {
  const isHydrated = useHydrated()
  const canInsert = isHydrated && Boolean(onInsert)
  const treeHref = useTreeHref()
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
      {schema.projects.length ? (
        schema.projects.map((project) => (
          <details
            key={project.uuid}
            open={schema.openProject === project.uuid || undefined}
            onToggle={(event) => {
              if (event.currentTarget.open && !project.tables) onOpenProject?.(project.uuid)
            }}
          >
            <summary>{project.name}</summary>
            {!project.tables ? (
              <ul>
                <li>
                  {isHydrated ? (
                    <small>Loading its tables…</small>
                  ) : (
                    <Link to={treeHref(project.uuid)} aria-label={`Show the tables of ${project.name}`}>
                      show its tables
                    </Link>
                  )}
                </li>
              </ul>
            ) : project.tables.length === 0 ? (
              <ul>
                <li>
                  <small>No tables yet</small>
                </li>
              </ul>
            ) : null}
            {project.tables?.map((table) => {
              const ref = tableRef(project.name, table.name)
              return (
                <details
                  key={table.uuid}
                  open={schema.openTable === table.uuid || undefined}
                  onToggle={(event) => {
                    if (event.currentTarget.open && !table.columns) onOpenTable?.(project.uuid, table.uuid)
                  }}
                >
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
                    {table.columns?.map((column) => (
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
                    {!table.columns ? (
                      <li>
                        {isHydrated ? (
                          <small>Loading its columns…</small>
                        ) : (
                          <Link to={treeHref(project.uuid, table.uuid)} aria-label={`Show the columns of ${ref}`}>
                            show its columns
                          </Link>
                        )}
                      </li>
                    ) : table.columns.length ? null : (
                      <li>
                        <small>No columns known (no transform yet)</small>
                      </li>
                    )}
                  </ul>
                </details>
              )
            })}
            {project.tables && (project.tableCount ?? 0) > project.tables.length ? (
              <ul>
                <li>
                  <small>
                    {(project.tableCount! - project.tables.length).toLocaleString('en-US')} more: find them with the
                    table search above
                  </small>
                </li>
              </ul>
            ) : null}
          </details>
        ))
      ) : (
        <Box color="fg.muted">No projects yet.</Box>
      )}
    </chakra.nav>
  )
}
