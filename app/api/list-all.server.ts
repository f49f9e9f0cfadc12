import type { ClusterApi, Params } from './client.server'
import { ClusterError } from './errors.server'

/** The most pages a whole-list read follows before it stops; guards against a `next` loop. */
const MAX_PAGES = 100
/**
 * The page size a whole-list read asks for: the local cluster's largest (1,000), so an org's 505
 * pools or 200 tables of a project are one answer. A cluster whose pages are smaller answers its own
 * size, and the next page follows on from it (DRF counts pages in the size it answers).
 */
const PAGE_SIZE = 1000

/**
 * Returns every item of a cluster list, following its pages (or one bare array from a pre-5.4
 * cluster), with `params` (DRF's filters, `ordering`) on every page. Throws ClusterError from the
 * first failing page.
 */
export async function listAll<T>(api: ClusterApi, path: string, params?: Params): Promise<T[]> {
  const items: T[] = []
  for (let page = 1; page <= MAX_PAGES; page++) {
    const answer = await api.list<T>(path, { page, pageSize: PAGE_SIZE, params })
    items.push(...answer.results)
    if (!answer.next || answer.results.length === 0 || items.length >= answer.count) break
  }
  return items
}

/**
 * One page of a cluster list sorted by `ordering` (DRF's `?ordering=`, `page`, `page_size`): what a
 * list page shows, not the whole collection (issue 33). A page past the end answers the last page
 * (as the console's own paging does). A cluster that answers a bare array (before v5.4: every item)
 * or more than a page (it ignored `page_size`) is sorted by `sortKey` and paged here; one that
 * ignores `ordering` answers in its own order, still a stable paging. Throws ClusterError.
 */
export async function listOnePage<T>(
  api: ClusterApi,
  path: string,
  {
    page,
    pageSize,
    ordering,
    sortKey,
  }: { page: number; pageSize: number; ordering: string; sortKey: (item: T) => string },
): Promise<{ items: T[]; page: number; pageCount: number; total: number }> {
  const ask = (n: number) => api.list<T>(path, { page: n, pageSize, params: { ordering } })
  let answer: Awaited<ReturnType<typeof ask>>
  let at = page
  try {
    answer = await ask(page)
  } catch (error) {
    // DRF answers 404 "Invalid page." past the end: the last page instead
    if (!(error instanceof ClusterError) || error.status !== 404 || page === 1) throw error
    const first = await ask(1)
    at = Math.max(1, Math.ceil(first.count / pageSize))
    answer = at === 1 ? first : await ask(at)
  }
  if (answer.results.length > pageSize) {
    const sorted = [...answer.results].sort((a, b) => sortKey(a).localeCompare(sortKey(b)))
    const pageCount = Math.max(1, Math.ceil(sorted.length / pageSize))
    const clamped = Math.min(page, pageCount)
    return {
      items: sorted.slice((clamped - 1) * pageSize, clamped * pageSize),
      page: clamped,
      pageCount,
      total: sorted.length,
    }
  }
  return {
    items: answer.results,
    page: at,
    pageCount: Math.max(1, Math.ceil(answer.count / pageSize)),
    total: answer.count,
  }
}
