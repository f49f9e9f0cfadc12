import { CONSOLE_PROJECT } from '~/utils/console-store'
import type { ClusterApi } from './client.server'
import { listProjects } from './projects.server'
import { cachedRead } from './read-cache.server'
import { listTables } from './tables.server'
import { listTransforms } from './transforms.server'

/** What the console's own store adds to the org's counts: its project, tables and transforms. */
export type ConsoleStoreCounts = { projects: number; tables: number; transforms: number }

/**
 * The console's own store in the org's counts (none when it is not set up): the dashboard takes it
 * out of the summary, so its figures are the user's data only. The project list comes from the
 * session's short read cache (as the tables list reads it). Throws ClusterError.
 */
export async function consoleStoreCounts(api: ClusterApi): Promise<ConsoleStoreCounts> {
  const store = await consoleStoreProject(api)
  if (!store) return { projects: 0, tables: 0, transforms: 0 }
  const tables = await listTables(api, store.uuid)
  const transforms = await Promise.all(tables.map((table) => listTransforms(api, store.uuid, table.uuid)))
  return { projects: 1, tables: tables.length, transforms: transforms.reduce((sum, list) => sum + list.length, 0) }
}

/** The console's own project in the org, or undefined while nobody has saved or turned History on. Throws ClusterError. */
export async function consoleStoreProject(api: ClusterApi) {
  const projects = await cachedRead(api, 'projects', () => listProjects(api))
  return projects.find((project) => project.name === CONSOLE_PROJECT)
}

/** The org summary without the console's own store in its project, table and transform counts. */
export function withoutConsoleStore(summary: Record<string, unknown>, store: ConsoleStoreCounts | null) {
  if (!store) return summary
  const less = (key: keyof ConsoleStoreCounts) =>
    typeof summary[key] === 'number' ? { [key]: Math.max(0, (summary[key] as number) - store[key]) } : {}
  return { ...summary, ...less('projects'), ...less('tables'), ...less('transforms') }
}
