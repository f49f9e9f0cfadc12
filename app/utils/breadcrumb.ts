/**
 * The breadcrumb (spec section 2), built from the URL path alone so it is the same on the server,
 * in the browser and without scripts.
 *
 * Rules:
 * 1. One crumb per path segment. Dashes become spaces and the first letter is capitalised
 *    (`new-summary-table` → "New summary table").
 * 2. A segment in an id position of the spec's routes (`[tableId]`, `[poolId]`, …) shows a
 *    placeholder naming what it is ("Table", "Pool", …), never the raw id. A route may name it
 *    instead (`handle.breadcrumb` returning `{ tableId: 'logs' }`) — except when the last segment is
 *    an action word (create, edit-*, new-*, invite-new-user, reference, update-file, alter-jobs,
 *    batch-jobs): then the id crumbs show the section name (the placeholder).
 * 3. A crumb links to its path when that path is a page of the console; the last crumb is the
 *    current page and has no link.
 */

export type Crumb = { label: string; href?: string }
/** Names for id params, keyed by param name (`{ tableId: 'logs' }`), given by `handle.breadcrumb`. */
export type CrumbNames = Record<string, string | undefined>

/** What an id param shows when no name is known, or when the page is an action on it. */
export const PLACEHOLDERS: Record<string, string> = {
  poolId: 'Pool',
  tableId: 'Table',
  transformId: 'Transform',
  sourceId: 'Source',
  bucketId: 'Bucket',
  credentialId: 'Credential',
  viewId: 'View',
  userId: 'User',
  roleId: 'Role',
  projectId: 'Project',
  dictionaryId: 'Dictionary',
  functionId: 'Function',
  name: 'File',
}

/** The console's pages (spec section 2); `:param` marks a route parameter. */
export const CONSOLE_ROUTES = [
  '/dashboard',
  '/profile/settings',
  '/profile/change-password',
  '/profile/create-token',
  '/data/tables',
  '/data/tables/:tableId',
  '/data/new-table',
  '/data/new-summary-table',
  '/data/new-summary-table/column-analysis',
  '/data/tables/:tableId/edit-summary-settings',
  '/data/tables/:tableId/edit-summary-settings/column-analysis',
  '/data/new-view',
  '/data/tables/:tableId/view/edit/:viewId',
  '/data/new-ingest-source',
  '/data/tables/:tableId/source/edit/:type/:sourceId',
  '/data/new-transform',
  '/data/tables/:tableId/transform/edit/:transformId',
  '/data/validate-transform',
  '/data/dictionaries',
  '/data/dictionaries/new-data-dictionary',
  '/data/dictionaries/:projectId/:dictionaryId/edit-dictionary',
  '/data/functions',
  '/data/functions/new-custom-function',
  '/data/functions/:projectId/:functionId/edit-function',
  '/data/files',
  '/data/files/new-file',
  '/data/files/:projectId/:name/update-file',
  '/jobs/alter-jobs',
  '/jobs/alter-jobs/create',
  '/jobs/batch-jobs',
  '/jobs/batch-jobs/create',
  '/scale',
  '/scale/search',
  '/scale/core',
  '/scale/pool/create',
  '/scale/pool/:poolId',
  '/queries',
  '/queries/reference',
  '/result',
  '/security/users',
  '/security/users/invite-new-user',
  '/security/users/:userId/edit-user',
  '/security/pending-invites',
  '/security/roles',
  '/security/roles/new-role',
  '/security/roles/:roleId/edit-role',
  '/security/buckets',
  '/security/new-bucket',
  '/security/buckets/:bucketId',
  '/security/credentials',
  '/security/new-credential',
  '/security/credentials/:credentialId',
  '/security/audit-trails',
  '/security/auth-logs',
  '/support',
  '/system-health/counts',
  '/system-health/logs',
  '/components-kit',
] as const

const ACTION_WORD = /^(create|edit-.+|new-.+|invite-new-user|reference|update-file|alter-jobs|batch-jobs)$/

/** True when `segment` names an action (create, edit-*, new-*, …) rather than a thing. */
export function isActionWord(segment: string): boolean {
  return ACTION_WORD.test(segment)
}

/** "new-summary-table" → "New summary table". */
export function humanize(segment: string): string {
  const words = segment.replace(/-/g, ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}

function splitPath(pathname: string): string[] {
  return pathname
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      try {
        return decodeURIComponent(segment)
      } catch {
        return segment
      }
    })
}

/** Returns each segment's param name (or null) when `segments` is one of the console's pages. */
function matchRoute(segments: string[]): (string | null)[] | undefined {
  for (const route of CONSOLE_ROUTES) {
    const parts = route.split('/').filter(Boolean)
    if (parts.length !== segments.length) continue
    if (parts.every((part, i) => part.startsWith(':') || part === segments[i])) {
      return parts.map((part) => (part.startsWith(':') ? part.slice(1) : null))
    }
  }
  return undefined
}

const ID_LIKE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+)$/i

/** Returns the crumbs for `pathname`; `names` gives display names for id params (rule 2). */
export function buildBreadcrumb(pathname: string, names: CrumbNames = {}): Crumb[] {
  const segments = splitPath(pathname)
  const params = matchRoute(segments)
  const isAction = segments.length > 0 && isActionWord(segments[segments.length - 1]!)

  return segments.map((segment, index) => {
    const param = params?.[index] ?? null
    let label: string
    if (param && PLACEHOLDERS[param]) {
      const name = names[param]
      label = !isAction && name ? name : PLACEHOLDERS[param]!
    } else if (!params && ID_LIKE.test(segment)) {
      // An unknown page: still never show a raw id.
      label = 'Details'
    } else {
      label = humanize(segment)
    }
    const isLast = index === segments.length - 1
    const prefix = segments.slice(0, index + 1)
    const href = !isLast && matchRoute(prefix) ? `/${prefix.map(encodeURIComponent).join('/')}` : undefined
    return href ? { label, href } : { label }
  })
}
