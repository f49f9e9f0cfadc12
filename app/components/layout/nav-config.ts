/**
 * The creation menu (spec section 1), in the spec's order, each to its creation route (section 2).
 * `needs`: the permissions (any one) without which the user can never create it, anywhere.
 */
export const ADD_NEW_ENTRIES = [
  { label: 'Alter job', to: '/jobs/alter-jobs/create', needs: ['add_alterjob'] },
  { label: 'Summary table', to: '/data/new-summary-table', needs: ['add_table'] },
  { label: 'Table view', to: '/data/new-view', needs: ['add_view'] },
  { label: 'Batch job', to: '/jobs/batch-jobs/create', needs: ['add_batchjob'] },
  { label: 'Data function', to: '/data/functions/new-custom-function', needs: ['add_function'] },
  { label: 'Data dictionary', to: '/data/dictionaries/new-data-dictionary', needs: ['add_dictionary'] },
  // auto batch is a table setting: change_table is enough for it
  {
    label: 'Table source',
    to: '/data/new-ingest-source',
    needs: ['add_kafkasource', 'add_kinesissource', 'add_siemsource', 'change_table'],
  },
  { label: 'Table transform', to: '/data/new-transform', needs: ['add_transform'] },
  { label: 'Resource pool', to: '/scale/pool/create', needs: ['add_pool'] },
  { label: 'Data file', to: '/data/files/new-file', needs: ['add_dictionaryfile'] },
  { label: 'Table', to: '/data/new-table', needs: ['add_table'] },
  { label: 'User', to: '/security/users/invite-new-user', needs: ['add_invite'] },
  { label: 'Bucket', to: '/security/new-bucket', needs: ['add_hdxstorage'] },
  { label: 'Role', to: '/security/roles/new-role', needs: ['add_role'] },
  { label: 'Credential', to: '/security/new-credential', needs: ['add_credential'] },
] as const

/** The sidebar's sections (spec section 2): `section` is the URL prefix that marks it current; `needs` as above (none: always shown). */
export const SIDEBAR_ENTRIES = [
  { label: 'Dashboard', to: '/dashboard', section: '/dashboard', glyph: '◫', needs: [] },
  { label: 'System Health', to: '/system-health/counts', section: '/system-health', glyph: '♥', needs: [] },
  {
    label: 'Data',
    to: '/data/tables',
    section: '/data',
    glyph: '▤',
    needs: ['view_project', 'view_table', 'view_dictionary', 'view_function', 'view_dictionaryfile'],
  },
  { label: 'Jobs', to: '/jobs/alter-jobs', section: '/jobs', glyph: '⚙', needs: ['view_alterjob', 'view_batchjob'] },
  { label: 'Scale', to: '/scale', section: '/scale', glyph: '⇅', needs: ['view_pool'] },
  { label: 'Query', to: '/queries', section: '/queries', glyph: '⌕', needs: ['select_sql'] },
  {
    label: 'Security',
    to: '/security/users',
    section: '/security',
    glyph: '▣',
    needs: [
      'view_user',
      'view_invite',
      'view_role',
      'view_audittrail',
      'view_hdxstorage',
      'view_credential',
      'view_authlog',
    ],
  },
] as const

/**
 * The paths of the menu and sidebar entries the user can never use: none of the permissions an entry
 * needs is among `permissions` (the user's, from `users/current`). Unknown permissions (null) hide nothing:
 * the cluster still refuses what the user may not do.
 */
export function hiddenPaths(permissions: readonly string[] | null): string[] {
  if (!permissions) return []
  const has = new Set(permissions)
  return [...ADD_NEW_ENTRIES, ...SIDEBAR_ENTRIES]
    .filter((entry) => entry.needs.length > 0 && !entry.needs.some((p) => has.has(p)))
    .map((entry) => entry.to)
}

/** Alt+N then A: the new alter job page (spec section 1). */
export const NEW_ALTER_JOB_PATH = '/jobs/alter-jobs/create'

/** True when `pathname` is inside `section` (the section itself or below it). */
export function isInSection(pathname: string, section: string): boolean {
  if (section === '/queries')
    return pathname === '/queries' || pathname.startsWith('/queries/') || pathname === '/result'
  return pathname === section || pathname.startsWith(`${section}/`)
}

/** `g` then a key: a jump to a section (the shortcuts sheet lists them, in this order). */
export const JUMP_SHORTCUTS = [
  { key: 'd', label: 'Dashboard', to: '/dashboard' },
  { key: 'h', label: 'System Health', to: '/system-health/counts' },
  { key: 't', label: 'Tables', to: '/data/tables' },
  { key: 'j', label: 'Jobs', to: '/jobs/alter-jobs' },
  { key: 's', label: 'Scale', to: '/scale' },
  { key: 'q', label: 'Query', to: '/queries' },
  { key: 'u', label: 'Users', to: '/security/users' },
  { key: 'p', label: 'Profile settings', to: '/profile/settings' },
] as const
