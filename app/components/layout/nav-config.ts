/** The creation menu (spec section 1), in the spec's order, each to its creation route (section 2). */
export const ADD_NEW_ENTRIES = [
  { label: 'Alter job', to: '/jobs/alter-jobs/create' },
  { label: 'Summary table', to: '/data/new-summary-table' },
  { label: 'Table view', to: '/data/new-view' },
  { label: 'Batch job', to: '/jobs/batch-jobs/create' },
  { label: 'Data function', to: '/data/functions/new-custom-function' },
  { label: 'Data dictionary', to: '/data/dictionaries/new-data-dictionary' },
  { label: 'Table source', to: '/data/new-ingest-source' },
  { label: 'Table transform', to: '/data/new-transform' },
  { label: 'Resource pool', to: '/scale/pool/create' },
  { label: 'Data file', to: '/data/files/new-file' },
  { label: 'Table', to: '/data/new-table' },
  { label: 'User', to: '/security/users/invite-new-user' },
  { label: 'Bucket', to: '/security/new-bucket' },
  { label: 'Role', to: '/security/roles/new-role' },
  { label: 'Credential', to: '/security/new-credential' },
] as const

/** The sidebar's sections (spec section 2): `section` is the URL prefix that marks it current. */
export const SIDEBAR_ENTRIES = [
  { label: 'Dashboard', to: '/dashboard', section: '/dashboard', glyph: '◫' },
  { label: 'System Health', to: '/system-health/counts', section: '/system-health', glyph: '♥' },
  { label: 'Data', to: '/data/tables', section: '/data', glyph: '▤' },
  { label: 'Jobs', to: '/jobs/alter-jobs', section: '/jobs', glyph: '⚙' },
  { label: 'Scale', to: '/scale', section: '/scale', glyph: '⇅' },
  { label: 'Query', to: '/queries', section: '/queries', glyph: '⌕' },
  { label: 'Security', to: '/security/users', section: '/security', glyph: '▣' },
] as const

/** Alt+N then A: the new alter job page (spec section 1). */
export const NEW_ALTER_JOB_PATH = '/jobs/alter-jobs/create'

/** True when `pathname` is inside `section` (the section itself or below it). */
export function isInSection(pathname: string, section: string): boolean {
  if (section === '/queries') return pathname === '/queries' || pathname.startsWith('/queries/') || pathname === '/result'
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
