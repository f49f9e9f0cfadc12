/** A table's detail URL; `?project=` saves the page a search across projects for the table. */
export function tableUrl(tableId: string, projectId: string): string {
  return `/data/tables/${encodeURIComponent(tableId)}?project=${encodeURIComponent(projectId)}`
}
