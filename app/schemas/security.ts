import { z } from 'zod'
import { setByThePage } from '~/utils/form-shape'
import { EmailSchema } from './auth'
import { defineEditForm, keptFieldsOfForm } from './lossless'
import { parsePolicies, ROLE_PLACES, SCOPE_LEVELS, type ScopeLevel } from './security-values'

export {
  INVITE_ROLES,
  parsePolicies,
  ROLE_PLACES,
  roleLabel,
  SCOPE_LEVELS,
  type ScopeLevel,
  type StagedPolicy,
} from './security-values'

const LEVEL_VALUES = SCOPE_LEVELS.map((level) => level.value) as [ScopeLevel, ...ScopeLevel[]]

export const SECURITY_MESSAGES = {
  roleRequired: 'Role is required',
  scopeRequired: 'Scope is required',
  resourceRequired: 'Resource is required',
  nameRequired: 'Name is required',
  nameTooLong: 'Name must be under 64 symbols',
  nameCharacters: 'Name may contain only letters, digits, "_" and "-"',
  scopeLevelRequired: 'Scope level is required',
  permissionsRequired: 'Permissions are required',
  policiesInvalid: 'The staged policies could not be read; reload the page and try again',
} as const

/** The invite form: email, one of the invitable roles, a scope level and the resource in it (spec 5). */
export const InviteFormSchema = z.object({
  email: EmailSchema,
  // one of the org's roles (built-in or custom): the action checks it against what the form offered
  role: z.string({ error: SECURITY_MESSAGES.roleRequired }).trim().min(1, { error: SECURITY_MESSAGES.roleRequired }),
  scopeLevel: z.enum(LEVEL_VALUES, { error: SECURITY_MESSAGES.scopeRequired }),
  resource: z
    .string({ error: SECURITY_MESSAGES.resourceRequired })
    .trim()
    .min(1, { error: SECURITY_MESSAGES.resourceRequired }),
})
export type InviteForm = z.infer<typeof InviteFormSchema>

/** The edit-user form: the roles the user should have (checkboxes; none checked sends nothing). */
export const UserRolesFormSchema = z.object({
  /** The boxes ticked: each value is a role's name the page set (a blank one was not sent by a box). */
  roles: z.array(setByThePage()).default([]),
})

/** A staged policy in the role form (the hidden `policies` field holds a JSON list of them). */
export const PolicySchema = z.object({
  permissions: z.array(z.string()).min(1),
  scope_type: z.string().nullable(),
  scope_id: z.string().nullable(),
})

/** What each button of the role form does: stage a policy, drop one, or publish the role. */
export const ROLE_INTENTS = ['add-policy', 'add-all', 'list-all', 'remove-policy', 'choose-level', 'save'] as const
export type RoleIntent = (typeof ROLE_INTENTS)[number]

const nameField = z
  .string({ error: SECURITY_MESSAGES.nameRequired })
  .trim()
  .min(1, { error: SECURITY_MESSAGES.nameRequired })
  .max(63, { error: SECURITY_MESSAGES.nameTooLong })
  .regex(/^[a-zA-Z0-9_-]+$/, { error: SECURITY_MESSAGES.nameCharacters })

const policiesField = z
  .string()
  .optional()
  .refine((text) => parsePolicies(text) !== undefined, { error: SECURITY_MESSAGES.policiesInvalid })

/**
 * The permissions ticked. An empty value (only a hand-made submission sends one: each box's value is
 * a permission's name) is dropped, not made an error on an item of the list no field shows.
 */
const permissionsField = (error?: string) =>
  z
    .array(z.string().optional(), error ? { error } : undefined)
    .transform((list) => list.filter((permission): permission is string => Boolean(permission)))

const builderFields = {
  scopeLevel: z.enum(LEVEL_VALUES, { error: SECURITY_MESSAGES.scopeLevelRequired }),
  scope: z.string({ error: SECURITY_MESSAGES.scopeRequired }).trim().min(1, { error: SECURITY_MESSAGES.scopeRequired }),
}

/**
 * The role form's schema for the button pressed (`intent`): staging a policy checks the policy
 * builder (scope level, scope, and permissions unless Add All / List All picks them); saving checks
 * the name and that at least one policy is staged. The browser and the action use the same one.
 */
export function roleFormSchema(intent: string | null | undefined, kept: readonly string[] = []) {
  const base = {
    // read by the action itself (formData.get): a duplicated or odd intent is its 'Unknown action', not a hidden field error
    intent: z.unknown().optional(),
    name: z.string().optional(),
    description: z.string().trim().optional(),
    policies: policiesField,
    scopeLevel: z.string().optional(),
    scope: z.string().optional(),
    permissions: permissionsField().optional(),
    index: z.string().optional(),
  }
  switch (intent) {
    case 'add-policy':
      return z.object({
        ...base,
        ...builderFields,
        permissions: permissionsField(SECURITY_MESSAGES.permissionsRequired).pipe(
          z.array(z.string()).min(1, { error: SECURITY_MESSAGES.permissionsRequired }),
        ),
      })
    case 'add-all':
    case 'list-all':
      return z.object({ ...base, ...builderFields })
    case 'save':
      return z
        .object({ ...base, name: nameField })
        .refine((value) => (parsePolicies(value.policies) ?? []).length > 0, {
          path: ['policies'],
          error: SECURITY_MESSAGES.permissionsRequired,
          // a stored role's policies saved unchanged are not checked again (decision 074)
          when: () => !kept.includes('policies'),
        })
    default:
      return z.object(base)
  }
}

/** The role edit form's fields posted as rendered from the stored role (browser and action alike). */
export function keptRoleFields(formData: FormData): string[] {
  return keptFieldsOfForm(formData, ROLE_PLACES, ['description'])
}

/**
 * The role editor's lossless rule (decisions 074 and 103): the browser's check and the action's
 * parse, for the button pressed (its intent's kind: `remove-policy:2` is `remove-policy`).
 */
export const roleEditForm = defineEditForm({
  name: 'role',
  kept: keptRoleFields,
  schemaOf: (formData) => roleFormSchema(String(formData.get('intent') ?? '').split(':')[0], keptRoleFields(formData)),
  // a stored role with no policies (another tool made it), saved with its fields unchanged
  example: {
    rendered: { intent: 'save', name: 'auditors', description: '', policies: '[]' },
    context: undefined,
    strict: roleFormSchema('save'),
  },
})
