/**
 * The permission catalogue (`{verb}_{resource}` names, as a real cluster's `roles/permissions/`)
 * and the built-in roles. A permission granted in a scope also holds for everything inside it:
 * org ⊃ project ⊃ table.
 */

const crud = (resource: string) => ['view', 'add', 'change', 'delete'].map((verb) => `${verb}_${resource}`)

/** Permissions that make sense inside one table. */
const TABLE_SCOPE = [
  'view_table',
  'change_table',
  'delete_table',
  'activity_table',
  'stats_table',
  'truncate_table',
  'generate_table',
  'populate_catalog_table',
  'catalog_urls_table',
  'select_sql',
  'insert_sql',
  'alter_table_sql',
  'select_catalog_sql',
  'select_metadata_sql',
  'show_columns_sql',
  'show_tables_sql',
  ...crud('transform'),
  ...crud('view'),
  ...crud('column'),
  ...crud('rowpolicy'),
  ...crud('kafkasource'),
  ...crud('kinesissource'),
  ...crud('siemsource'),
  ...crud('summarysource'),
  'add_alterjob',
  'cancel_alterjob',
  'commit_alterjob',
  'delete_alterjob',
  'retry_alterjob',
  'status_alterjob',
  'verify_alterjob',
  'view_alterjob',
  'add_batchjob',
  'change_batchjob',
  'cancel_batchjob',
  'delete_batchjob',
  'retry_batchjob',
  'status_batchjob',
  'view_batchjob',
]

/** Permissions that make sense inside one project (its tables' permissions included). */
const PROJECT_SCOPE = [
  'view_project',
  'change_project',
  'delete_project',
  'activity_project',
  'stats_project',
  'add_table',
  ...crud('dictionary'),
  ...crud('dictionaryfile'),
  ...crud('function'),
  ...TABLE_SCOPE,
]

/** Everything (the org scope). */
const ORG_SCOPE = [
  'view_org',
  'change_org',
  'view_audittrail',
  'view_authlog',
  'purge_jobs',
  ...crud('project'),
  ...PROJECT_SCOPE,
  ...crud('pool'),
  ...crud('user'),
  ...crud('serviceaccount'),
  ...crud('invite'),
  ...crud('role'),
  ...crud('hdxstorage'),
  ...crud('credential'),
  'view_catalog',
  'change_catalog',
]

export const ALL_PERMISSIONS: string[] = [...new Set(ORG_SCOPE)]

/** `GET roles/permissions/`: per scope type, the permissions a policy of that scope may hold. */
export function permissionCatalogue(): { scope_type: string | null; permissions: string[] }[] {
  const only = (prefixes: string[]) => ALL_PERMISSIONS.filter((p) => prefixes.some((r) => p.endsWith(`_${r}`)))
  return [
    { scope_type: null, permissions: ALL_PERMISSIONS },
    { scope_type: 'org', permissions: ALL_PERMISSIONS },
    { scope_type: 'project', permissions: [...new Set(PROJECT_SCOPE)] },
    { scope_type: 'table', permissions: [...new Set(TABLE_SCOPE)] },
    { scope_type: 'transform', permissions: only(['transform']) },
    { scope_type: 'view', permissions: only(['view']) },
    { scope_type: 'dictionary', permissions: only(['dictionary']) },
    { scope_type: 'function', permissions: only(['function']) },
    { scope_type: 'pool', permissions: only(['pool']) },
    { scope_type: 'hdxstorage', permissions: only(['hdxstorage']) },
    { scope_type: 'credential', permissions: only(['credential']) },
    { scope_type: 'kafkasource', permissions: only(['kafkasource']) },
    { scope_type: 'kinesissource', permissions: only(['kinesissource']) },
    { scope_type: 'siemsource', permissions: only(['siemsource']) },
    { scope_type: 'summarysource', permissions: only(['summarysource']) },
    { scope_type: 'user', permissions: only(['user']) },
    { scope_type: 'serviceaccount', permissions: only(['serviceaccount']) },
    { scope_type: 'role', permissions: only(['role']) },
    { scope_type: 'invite', permissions: only(['invite']) },
  ]
}

export const SCOPE_TYPES = permissionCatalogue()
  .map((c) => c.scope_type)
  .filter((s): s is string => s !== null)

const isView = (p: string) =>
  p.startsWith('view_') ||
  p.startsWith('status_') ||
  p.startsWith('activity_') ||
  p.startsWith('stats_') ||
  p === 'verify_alterjob'

const READER = ALL_PERMISSIONS.filter(
  (p) =>
    (isView(p) &&
      ![
        'view_user',
        'view_serviceaccount',
        'view_invite',
        'view_role',
        'view_audittrail',
        'view_authlog',
        'view_credential',
      ].includes(p)) ||
    ['select_sql', 'select_metadata_sql', 'show_columns_sql', 'show_tables_sql', 'select_catalog_sql'].includes(p),
)

const DATA_RESOURCES = [
  'project',
  'table',
  'transform',
  'view',
  'column',
  'dictionary',
  'dictionaryfile',
  'function',
  'kafkasource',
  'kinesissource',
  'siemsource',
  'summarysource',
]

const PUBLISHER = [
  ...new Set([
    ...READER,
    ...DATA_RESOURCES.flatMap((r) => [`add_${r}`, `change_${r}`]),
    'insert_sql',
    'add_batchjob',
    'status_batchjob',
    'view_batchjob',
  ]),
]

const SECURITY = ['user', 'serviceaccount', 'invite', 'role', 'credential']
const OPERATOR = ALL_PERMISSIONS.filter(
  (p) =>
    !SECURITY.some((r) => p.endsWith(`_${r}`) && !p.startsWith('view_')) && !['change_org', 'view_authlog'].includes(p),
)

/** Managing people: users, service accounts, invites and roles, with the org, audit trail and auth log to read. */
const USER_ADMIN = ALL_PERMISSIONS.filter(
  (p) =>
    ['user', 'serviceaccount', 'invite', 'role'].some((r) => p.endsWith(`_${r}`)) ||
    ['view_org', 'view_audittrail', 'view_authlog'].includes(p),
)

/** Every read, security included, and read-only SQL: what an auditor or a dashboard's token needs. */
const READ_ONLY = ALL_PERMISSIONS.filter(
  (p) =>
    isView(p) ||
    ['select_sql', 'select_metadata_sql', 'show_columns_sql', 'show_tables_sql', 'select_catalog_sql'].includes(p),
)

export interface Policy {
  permissions: string[]
  scope_type: string | null
  scope_id: string | null
}

export interface BuiltInRole {
  name: string
  description: string
  policies: Policy[]
}

export const BUILT_IN_ROLES: BuiltInRole[] = [
  {
    name: 'super_admin',
    description: 'Every permission, everywhere.',
    policies: [{ permissions: ALL_PERMISSIONS, scope_type: null, scope_id: null }],
  },
  {
    name: 'org_admin',
    description: 'Org admin: manages everything in the org, security included.',
    policies: [{ permissions: ALL_PERMISSIONS, scope_type: 'org', scope_id: null }],
  },
  {
    name: 'operator',
    description: 'Operator: manages data, jobs and pools; reads security.',
    policies: [{ permissions: OPERATOR, scope_type: 'org', scope_id: null }],
  },
  {
    name: 'publisher',
    description: 'Publisher: creates and changes data objects and loads data.',
    policies: [{ permissions: PUBLISHER, scope_type: 'org', scope_id: null }],
  },
  {
    name: 'reader',
    description: 'Reader: reads configuration and queries data.',
    policies: [{ permissions: READER, scope_type: 'org', scope_id: null }],
  },
  // the roles a real install also has (hdxcli 1.0's own tests assign and list them)
  {
    name: 'user_admin',
    description: 'User admin: manages users, service accounts, invites and roles.',
    policies: [{ permissions: USER_ADMIN, scope_type: 'org', scope_id: null }],
  },
  {
    name: 'read_only',
    description: 'Read only: reads everything, security included, and queries data; changes nothing.',
    policies: [{ permissions: READ_ONLY, scope_type: 'org', scope_id: null }],
  },
]

/** Invite/UI labels for the built-in roles. */
export const ROLE_LABELS: Record<string, string> = {
  'org admin': 'org_admin',
  admin: 'org_admin',
  operator: 'operator',
  publisher: 'publisher',
  reader: 'reader',
}
