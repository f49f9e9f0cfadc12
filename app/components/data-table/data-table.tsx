import { Box, Table } from '@chakra-ui/react'
import type { ReactNode } from 'react'

export type Column<Row> = {
  key: string
  header: ReactNode
  cell: (row: Row) => ReactNode
  /** Row header cell (`<th scope="row">`) for the column that names the row. */
  isRowHeader?: boolean
  width?: string
}

/**
 * A server-rendered table of `rows`; `empty` shows instead when there are none.
 * `caption` names the table for assistive technology (visually hidden).
 */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  caption,
  empty,
}: {
  columns: Column<Row>[]
  rows: Row[]
  rowKey: (row: Row) => string
  caption: string
  empty: ReactNode
}) {
  if (!rows.length) {
    return (
      <Box borderWidth="1px" rounded="md" bg="bg" p="8" textAlign="center" color="fg.muted" role="status">
        {empty}
      </Box>
    )
  }
  return (
    <Box borderWidth="1px" rounded="md" bg="bg" overflowX="auto">
      <Table.Root size="sm" interactive>
        <Table.Caption srOnly>{caption}</Table.Caption>
        <Table.Header>
          <Table.Row>
            {columns.map((column) => (
              <Table.ColumnHeader key={column.key} scope="col" width={column.width}>
                {column.header}
              </Table.ColumnHeader>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((row) => (
            <Table.Row key={rowKey(row)}>
              {columns.map((column) =>
                column.isRowHeader ? (
                  <Table.Cell as="th" scope="row" key={column.key} fontWeight="medium">
                    {column.cell(row)}
                  </Table.Cell>
                ) : (
                  <Table.Cell key={column.key}>{column.cell(row)}</Table.Cell>
                ),
              )}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Box>
  )
}
