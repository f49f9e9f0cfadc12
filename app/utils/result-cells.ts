/**
 * Result cells, the same on both sides: the server's page and the rows the browser streams in are
 * turned into cells by one function, so a value looks the same whichever way it arrived.
 */
export type Cell = string | null

/** A JSON value from the engine as shown: strings as they are (64-bit integers come quoted), others as JSON. */
export function cellOf(value: unknown): Cell {
  if (value === null || value === undefined) return null
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return JSON.stringify(value)
}

/** Row lines as the cluster writes them (one JSON array a line) as cells: a page's rows and the grid's stream alike. */
export function cellsOf(lines: readonly string[]): Cell[][] {
  return lines.map((line) => (JSON.parse(line) as unknown[]).map(cellOf))
}

/** Rows the no-script result shows per page (with scripts the grid holds the whole result). */
export const RESULT_PAGE_SIZE = 500

/** The page number a URL asks for (1-based; anything else is page 1). */
export function pageOf(value: string | null): number {
  const page = Number(value)
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1
}
