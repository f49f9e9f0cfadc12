import { data } from '@remix-run/node'
import type { ClusterApi } from '~/api/client.server'
import { replyFromCluster } from '~/api/policies.server'
import {
  createRole,
  getPermissionCatalogue,
  getRole,
  patchRole,
  updateRole,
  type Role,
  type RoleInput,
} from '~/api/roles.server'
import { isSameJson } from '~/schemas/lossless'
import { parseEdit } from '~/services/edit-save.server'
import {
  parsePolicies,
  ROLE_PLACES,
  roleEditForm,
  roleFormSchema,
  SCOPE_LEVELS,
  SECURITY_MESSAGES,
  type ScopeLevel,
  type StagedPolicy,
} from '~/schemas/security'
import { redirectWithToast } from '~/utils/toast.server'
import { placeConflicts, refuseConflicts, seenAgain } from '~/utils/edit-conflict.server'
import { isScope, loadScopes, projectScopeIds, tableScopeIds, type ScopeOption } from './__scopes.server'

/** The role form's whole state: what is published on save, plus the policy builder's choices. */
export type RoleDraft = {
  name: string
  description: string
  policies: StagedPolicy[]
  scopeLevel: ScopeLevel
  scope: string
  permissions: string[]
}

/** The permissions a policy of each offered scope level may hold, from the cluster's catalogue. */
export type PermissionsByLevel = Record<ScopeLevel, string[]>

/** The permissions List All stages: the read-only ones. */
export const isListPermission = (permission: string) => permission.startsWith('view_')

async function loadCatalogue(api: ClusterApi): Promise<PermissionsByLevel> {
  const catalogue = await getPermissionCatalogue(api)
  const of = (level: string) => catalogue.find((entry) => entry.scope_type === level)?.permissions ?? []
  return Object.fromEntries(SCOPE_LEVELS.map((level) => [level.value, of(level.value)])) as PermissionsByLevel
}

/**
 * The scopes a role form offers for a draft (issue 33): the org, the projects, the tables the
 * form's search (`scope_q`) finds and the tables its policies and its chosen scope name, by id.
 */
function scopesOf(api: ClusterApi, draft: Pick<RoleDraft, 'policies' | 'scopeLevel' | 'scope'>, q = '') {
  return loadScopes(api, {
    q,
    tableIds: [...tableScopeIds(draft.policies), draft.scopeLevel === 'table' ? draft.scope : null],
    projectIds: [...projectScopeIds(draft.policies), draft.scopeLevel === 'project' ? draft.scope : null],
  })
}

/**
 * The role form's data: scopes (org, projects, the first tables or the ones named), the permission catalogue, the draft (the
 * saved role, or an empty one) and, when editing, the saved policies the staged ones are compared
 * with. Throws ClusterError.
 */
export async function loadRoleEditor(api: ClusterApi, roleId?: string) {
  const [catalogue, role] = await Promise.all([loadCatalogue(api), roleId ? getRole(api, roleId) : null])
  const policies = (role?.policies ?? []).map(normalise)
  const { options: scopes, search: scopeSearch } = await scopesOf(api, { policies, scopeLevel: 'org', scope: '' })
  const org = scopes.find((scope) => scope.level === 'org')?.value ?? ''
  const draft: RoleDraft = {
    name: role?.name ?? '',
    description: role?.description ?? '',
    policies,
    scopeLevel: 'org',
    scope: org,
    permissions: [],
  }
  return {
    scopes,
    scopeSearch,
    catalogue,
    draft,
    // what the edit form renders, for a save that writes only what changed (decision 074)
    original: role ? JSON.stringify(renderedRole(draft)) : null,
    saved: policies,
    role: role
      ? { id: role.id, name: role.name, builtIn: Boolean(role.built_in), users: role.users?.length ?? 0 }
      : null,
  }
}

/** The role form's saved fields as it renders them: the `original` an edit form carries. */
const renderedRole = (draft: RoleDraft) => ({
  name: draft.name,
  description: draft.description,
  policies: JSON.stringify(draft.policies),
})

/**
 * The policies to publish: each staged one is the stored policy it was shown from, verbatim (its
 * unknown keys, its permissions' order), when unchanged; a stored policy of the same scope with the
 * staged permissions when they changed; else the staged policy itself.
 */
export function mergePolicies(stored: readonly Record<string, unknown>[], staged: StagedPolicy[]) {
  const used = new Set<number>()
  const take = (test: (policy: Record<string, unknown>) => boolean) => {
    const index = stored.findIndex((policy, i) => !used.has(i) && test(policy))
    if (index !== -1) used.add(index)
    return index === -1 ? undefined : stored[index]
  }
  return staged.map((policy) => {
    const same = take((candidate) => isSameJson(normalise(candidate as Role['policies'][number]), policy))
    if (same) return same
    const scoped = take(
      (candidate) =>
        (candidate.scope_type ?? null) === policy.scope_type && (candidate.scope_id ?? null) === policy.scope_id,
    )
    return scoped ? { ...scoped, permissions: policy.permissions } : policy
  })
}

const normalise = (policy: Role['policies'][number]): StagedPolicy => ({
  permissions: [...policy.permissions],
  scope_type: policy.scope_type ?? null,
  scope_id: policy.scope_id ?? null,
})

/** Adds a policy to the staged ones; one with the same scope gets the new permissions merged in. */
export function stagePolicy(policies: StagedPolicy[], policy: StagedPolicy): StagedPolicy[] {
  const index = policies.findIndex(
    (p) => p.scope_type === policy.scope_type && (p.scope_id ?? null) === (policy.scope_id ?? null),
  )
  if (index === -1) return [...policies, policy]
  return policies.map((p, i) =>
    i === index ? { ...p, permissions: [...new Set([...p.permissions, ...policy.permissions])] } : p,
  )
}

const newRevision = () => Math.random().toString(36).slice(2, 10)

/**
 * The role form's action, for every button: Add policy, Add All, List All, Remove (each returns the
 * new draft: staged, nothing is sent to the cluster), the level chooser (no scripts), and Save,
 * which publishes the name, description and every staged policy in one call (create, or replace
 * when `roleId` is given) and goes to the roles list with a toast. Errors come back on the form
 * with everything typed and staged kept.
 */
export async function roleEditorAction(api: ClusterApi, formData: FormData, roleId?: string) {
  const intent = String(formData.get('intent') ?? '')
  const [kind, argument] = intent.split(':')
  const revision = String(formData.get('revision') ?? '') || newRevision()
  // an edit form's `original` travels through every staging answer: Save compares with it
  const originalText = roleId ? String(formData.get('original') ?? '') || null : null
  // the same rule as the browser's check (decision 103)
  const { original, kept, submission } = parseEdit(formData, roleEditForm, undefined, {
    isEdit: Boolean(roleId),
    strict: roleFormSchema(kind),
  })
  const scopeQ = String(formData.get('scope_q') ?? '').trim()
  if (submission.status !== 'success') {
    const policies = parsePolicies(String(formData.get('policies') ?? '')) ?? []
    const level = String(formData.get('scopeLevel') ?? '') as ScopeLevel
    const found = await scopesOf(
      api,
      { policies, scopeLevel: level, scope: String(formData.get('scope') ?? '') },
      scopeQ,
    )
    return data(
      {
        result: submission.reply(),
        revision,
        original: originalText,
        scopes: found.options,
        scopeSearch: found.search,
      },
      { status: 400 },
    )
  }
  const value = submission.value
  const staged = parsePolicies(value.policies) ?? []
  const draft: RoleDraft = {
    name: value.name ?? '',
    // as typed: a staging answer shows it again untouched (trimmed only when saved)
    description: String(formData.get('description') ?? ''),
    policies: staged,
    scopeLevel: (SCOPE_LEVELS.some((l) => l.value === value.scopeLevel) ? value.scopeLevel : 'org') as ScopeLevel,
    scope: value.scope ?? '',
    permissions: [],
  }
  const answer = async (next: Partial<RoleDraft>, note?: string) => {
    const nextDraft = { ...draft, ...next }
    const found = await scopesOf(api, nextDraft, scopeQ)
    return data({
      draft: nextDraft,
      revision: newRevision(),
      original: originalText,
      note: note ?? null,
      scopes: found.options,
      scopeSearch: found.search,
    })
  }
  const refuse = async (errors: Record<string, string[]>) => {
    const found = await scopesOf(api, draft, scopeQ)
    return data(
      {
        result: submission.reply({ fieldErrors: errors }),
        revision,
        original: originalText,
        scopes: found.options,
        scopeSearch: found.search,
      },
      { status: 400 },
    )
  }

  if (kind === 'remove-policy') {
    const index = Number(argument)
    const removed = staged[index]
    if (!removed) return answer({})
    return answer({ policies: staged.filter((_, i) => i !== index) }, 'Policy removed (staged: saved with the role).')
  }
  if (kind === 'find-scope') {
    // the scope search (works without scripts): the same draft, the tables the search finds offered
    const found = await scopesOf(api, draft, scopeQ)
    const count = found.search.choices.length
    return answer(
      {},
      count
        ? `${found.search.hasMore ? 'The first ' : ''}${count} ${count === 1 ? 'table' : 'tables'}` +
            `${scopeQ ? ` matching “${scopeQ}”` : ''} offered as scopes.`
        : `No table matches “${scopeQ}”.`,
    )
  }
  if (kind === 'choose-level') {
    if (await isScope(api, draft.scopeLevel, draft.scope)) return answer({})
    const { options } = await scopesOf(api, draft, scopeQ)
    return answer({ scope: options.find((scope) => scope.level === draft.scopeLevel)?.value ?? '' })
  }
  if (kind === 'add-policy' || kind === 'add-all' || kind === 'list-all') {
    const [valid, catalogue] = await Promise.all([isScope(api, draft.scopeLevel, draft.scope), loadCatalogue(api)])
    const level = draft.scopeLevel
    const allowed = catalogue[level] ?? []
    const errors: Record<string, string[]> = {}
    if (!valid) errors.scope = [scopeMismatch((await scopesOf(api, draft)).options, level)]
    const chosen =
      kind === 'add-all' ? allowed : kind === 'list-all' ? allowed.filter(isListPermission) : (value.permissions ?? [])
    const foreign = chosen.filter((permission) => !allowed.includes(permission))
    if (foreign.length)
      errors.permissions = [`Not permissions of a ${labelOf(level).toLowerCase()} scope: ${foreign.join(', ')}`]
    if (!chosen.length) errors.permissions = [SECURITY_MESSAGES.permissionsRequired]
    if (Object.keys(errors).length) return refuse(errors)
    const policy: StagedPolicy = { permissions: chosen, scope_type: level, scope_id: draft.scope }
    return answer(
      { policies: stagePolicy(staged, policy) },
      `${chosen.length} ${chosen.length === 1 ? 'permission' : 'permissions'} staged: saved with the role.`,
    )
  }
  if (kind !== 'save') throw data({ message: 'Unknown action' }, { status: 400 })

  const role = { name: value.name!.trim(), description: draft.description.trim(), policies: staged }
  try {
    const stored = roleId && original ? await getRole(api, roleId) : null
    if (stored && original) {
      // no silent lost update (decision 097): a field changed here and, meanwhile, on the cluster
      const now = renderedRole({
        ...draft,
        name: stored.name,
        description: stored.description ?? '',
        policies: (stored.policies ?? []).map(normalise),
      })
      const conflicts = placeConflicts({
        formData,
        seen: original,
        now,
        places: ROLE_PLACES,
        kept,
        labels: { name: 'Role name', description: 'Description', policies: 'Policies' },
        multiline: ['description'],
      })
      if (conflicts.length) {
        const next = JSON.stringify(seenAgain(original, now, conflicts))
        const found = await scopesOf(api, draft, scopeQ)
        return await refuseConflicts(api, submission, conflicts, {
          current: stored,
          original: next,
          extra: { revision, original: next, scopes: found.options, scopeSearch: found.search },
        })
      }
    }
    const saved = roleId
      ? stored
        ? await saveChanged(api, stored, role, kept)
        : await updateRole(api, roleId, role)
      : await createRole(api, role)
    return redirectWithToast('/security/roles', {
      title: `Role ${saved.name} ${roleId ? 'saved' : 'created'}`,
      type: 'success',
    })
  } catch (error) {
    const reply = replyFromCluster(submission, error, { rename: clusterFields(staged.length) })
    const found = await scopesOf(api, draft, scopeQ)
    return data(
      {
        result: reply.data.result,
        revision,
        original: originalText,
        scopes: found.options,
        scopeSearch: found.search,
      },
      { status: 400 },
    )
  }
}

/**
 * An edit's Save (decision 074): onto the stored role as read again, only the changed fields sent
 * (PATCH); an unchanged policy is sent as stored. Nothing is sent when nothing changed.
 */
async function saveChanged(api: ClusterApi, stored: Role, role: RoleInput, kept: readonly string[]) {
  const roleId = stored.id
  const changes: Partial<RoleInput> = {}
  if (!kept.includes('name') && role.name !== stored.name) changes.name = role.name
  if (!kept.includes('description')) changes.description = role.description
  if (!kept.includes('policies')) {
    const policies = mergePolicies(stored.policies as unknown as Record<string, unknown>[], role.policies)
    if (!isSameJson(policies, stored.policies)) changes.policies = policies as RoleInput['policies']
  }
  return Object.keys(changes).length ? patchRole(api, roleId, changes) : stored
}

function labelOf(level: string) {
  return SCOPE_LEVELS.find((l) => l.value === level)?.label ?? level
}

function scopeMismatch(scopes: ScopeOption[], level: string) {
  if (!scopes.some((scope) => scope.level === level)) return `There is no ${labelOf(level).toLowerCase()} to choose yet`
  return level === 'org'
    ? 'Scope must be the organization'
    : `Scope must be a ${labelOf(level).toLowerCase()} (the scope level chosen)`
}

/** The cluster's role fields (policies flattened per index) to the form's. */
function clusterFields(count: number): Record<string, string> {
  const fields: Record<string, string> = { name: 'name', description: 'description', policies: 'policies' }
  for (let i = 0; i < count; i++) {
    for (const key of ['', '.permissions', '.scope_type', '.scope_id']) fields[`policies[${i}]${key}`] = 'policies'
  }
  return fields
}
