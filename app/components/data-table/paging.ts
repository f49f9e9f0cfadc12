/** The "Rows per page" choices (the spec leaves the sizes open). */
export const PAGE_SIZES = [10, 25, 50, 100] as const
export const DEFAULT_PAGE_SIZE = 25

export type Paging = { page: number; pageSize: number; q: string }

/** Reads `page`, `pageSize` and the `q` filter from a URL; anything out of range falls back to the defaults. */
export function parsePaging(url: URL | string, defaultPageSize: number = DEFAULT_PAGE_SIZE): Paging {
  const params = (typeof url === 'string' ? new URL(url) : url).searchParams
  const page = Number(params.get('page'))
  const pageSize = Number(params.get('pageSize'))
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: (PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : defaultPageSize,
    q: (params.get('q') ?? '').trim(),
  }
}

/** Returns the page of `items` that `paging` asks for (the last page when it asks past the end). */
export function pageOf<T>(
  items: readonly T[],
  paging: Paging,
): { items: T[]; page: number; pageCount: number; total: number } {
  const pageCount = Math.max(1, Math.ceil(items.length / paging.pageSize))
  const page = Math.min(paging.page, pageCount)
  const start = (page - 1) * paging.pageSize
  return { items: items.slice(start, start + paging.pageSize), page, pageCount, total: items.length }
}

/** A list loader's page data: the page's rows (`pageOf`), where it is, and the URL's size and filter. */
export function listPage<T>(items: readonly T[], paging: Paging) {
  const page = pageOf(items, paging)
  return {
    rows: page.items,
    page: page.page,
    pageCount: page.pageCount,
    total: page.total,
    pageSize: paging.pageSize,
    q: paging.q,
  }
}
