/*
 * The console's own store on the cluster (decision 029): project `cluster_console` with every user's
 * saved queries and query history. It is a project like any other to the cluster; the console marks
 * it as its own where it shows, leaves it out of table pickers and counts, and says what deleting it
 * takes. Shared by server and browser code.
 */

/** The project the console keeps its own rows in. */
export const CONSOLE_PROJECT = 'cluster_console'

/** Its two tables: saved queries, and every run of the query history. */
export const SAVED_TABLE = 'saved_queries'
export const HISTORY_TABLE = 'query_history'
/** Sessions logged out on a cluster that has no revoke call (decision 080): a digest of the token, until it expires. */
export const REVOKED_TABLE = 'revoked_sessions'

/**
 * The console's own service account for its store (decision 105), as the console makes it in local mode and as an
 * operator should name it.
 */
export const STORE_ACCOUNT_NAME = 'cluster-console-store'

/** The role that gives that account its rights: one policy scoped to the store's project. */
export const STORE_ROLE = 'cluster_console_store'

/** The badge beside the project's name wherever it is listed. */
export const CONSOLE_PROJECT_BADGE = 'console store'

/** What the project is, said where it shows (the tables list, the project panel). */
export const CONSOLE_PROJECT_NOTE =
  "The console's own store: every user's saved queries and query history, and the sessions logged out."

/** What deleting the project takes, said on its delete step. */
export const CONSOLE_PROJECT_DELETE_NOTE =
  "This is the console's own store: every user's saved queries and query history go with " +
  'it, and the list of sessions logged out (other replicas would accept a copied session ' +
  'again until it expires).'

/** True for the console's own project (by name: the cluster has no other mark for it). */
export function isConsoleProject(project: { name: string } | string): boolean {
  return (typeof project === 'string' ? project : project.name) === CONSOLE_PROJECT
}

/**
 * Whether a search names the console's own project (decision 105): the store is left out of every
 * list, picker and scope choice, and found only by a search that has its whole name in it (an admin
 * looking for it: Settings links to the tables list searched for it).
 */
export function namesConsoleProject(q: string | null | undefined): boolean {
  return (q ?? '').toLowerCase().includes(CONSOLE_PROJECT)
}

/** The entries of a table picker or a count without the console's own project. */
export function withoutConsoleProject<T extends { project: { name: string } }>(entries: T[]): T[] {
  return entries.filter((entry) => !isConsoleProject(entry.project))
}
