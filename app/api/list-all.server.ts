import type { ClusterApi } from './client.server'

/** The most pages a whole-list read follows before it stops; guards against a `next` loop. */
const MAX_PAGES = 100
const PAGE_SIZE = 500

/**
 * Returns every item of a cluster list, following its pages (or one bare array from a pre-5.4
 * cluster). Throws ClusterError from the first failing page.
 */
export async function listAll<T>(api: ClusterApi, path: string): Promise<T[]> {
  const items: T[] = []
  for (let page = 1; page <= MAX_PAGES; page++) {
    const answer = await api.list<T>(path, { page, pageSize: PAGE_SIZE })
    items.push(...answer.results)
    if (!answer.next || answer.results.length === 0 || items.length >= answer.count) break
  }
  return items
}
