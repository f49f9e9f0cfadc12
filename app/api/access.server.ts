import { oncePerRequest, type ClusterApi } from "./client.server";
import { settle } from "./policies.server";
import { listRoles, type Policy } from "./roles.server";
import { getMyPermissions, getMyRoleNames } from "./users.server";

/** Where an action applies, as the page knows it: names for the reason, ids for the policies. */
export type AccessScope = {
  project?: { uuid: string; name: string } | null;
  table?: { uuid: string; name: string } | null;
};

/**
 * The signed-in user's grants, read once per request: the flat permission list of `users/current`
 * (null when it cannot be read) and, when the user may read roles, the policies of their roles
 * (null otherwise: a reader may not list roles, and then reasons are org-wide).
 */
const getMyGrants = oncePerRequest(async (api) => {
  const [permissions, roleNames] = await Promise.all([
    settle(() => getMyPermissions(api)),
    settle(() => getMyRoleNames(api)),
  ]);
  let policies: Policy[] | null = null;
  let superAdmin = false;
  if (roleNames.value && permissions.value?.includes("view_role")) {
    const roles = await settle(() => listRoles(api));
    if (roles.value) {
      const mine = roles.value.filter((role) =>
        roleNames.value!.includes(role.name)
      );
      superAdmin = mine.some(
        (role) => role.name === "super_admin" && role.built_in
      );
      policies = mine.flatMap((role) => role.policies);
    }
  }
  return { permissions: permissions.value, policies, superAdmin };
});

function covers(policy: Policy, scope: AccessScope): boolean {
  if (!policy.scope_type || policy.scope_type === "org") return true;
  if (policy.scope_type === "project")
    return !!scope.project && scope.project.uuid === policy.scope_id;
  if (policy.scope_type === "table")
    return !!scope.table && scope.table.uuid === policy.scope_id;
  return false;
}

function scopeText(scope: AccessScope): string {
  if (scope.table)
    return ` on table ${scope.project ? `${scope.project.name}.` : ""}${
      scope.table.name
    }`;
  if (scope.project) return ` on project ${scope.project.name}`;
  return "";
}

/**
 * Why the signed-in user may not do what needs `permission` (any one of a list) in `scope`: null
 * when they may (or when their permissions cannot be read: the cluster then has the last word), else
 * the reason shown beside the disabled control: "Needs delete_table on table sample.logs". The
 * scope is checked against the user's policies when they may read roles (a grant on another project
 * does not count); otherwise against the flat list of `users/current`, which does not say scopes.
 * `'anywhere'` (a list of items in many scopes): null when the user holds it in some scope.
 */
export async function whyNot(
  api: ClusterApi,
  permission: string | readonly string[],
  scope: AccessScope | "anywhere" = {}
): Promise<string | null> {
  const wanted = typeof permission === "string" ? [permission] : permission;
  const grants = await getMyGrants(api);
  if (!grants.permissions || grants.superAdmin) return null;
  const reason = `Needs ${wanted.join(" or ")}${
    scope === "anywhere" ? "" : scopeText(scope)
  }`;
  if (!wanted.some((p) => grants.permissions!.includes(p))) return reason;
  if (!grants.policies || scope === "anywhere") return null;
  return grants.policies.some(
    (policy) =>
      covers(policy, scope) &&
      wanted.some((p) => policy.permissions.includes(p))
  )
    ? null
    : reason;
}

/** `whyNot` for several controls of one page at once: `{ deleteTable: null, truncate: 'Needs …' }`. */
export async function whyNotEach<K extends string>(
  api: ClusterApi,
  checks: Record<K, string | readonly string[]>,
  scope: AccessScope | "anywhere" = {}
): Promise<Record<K, string | null>> {
  const keys = Object.keys(checks) as K[];
  const reasons = await Promise.all(
    keys.map((key) => whyNot(api, checks[key], scope))
  );
  return Object.fromEntries(keys.map((key, i) => [key, reasons[i]])) as Record<
    K,
    string | null
  >;
}
