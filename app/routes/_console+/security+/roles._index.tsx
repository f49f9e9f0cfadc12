import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { loadFromCluster, settle } from '~/api/policies.server'
import { listRoles, type Role } from '~/api/roles.server'
import { listOnePage } from '~/api/list-all.server'
import { type Column } from '~/components/data-table/data-table'
import { ListPage } from '~/components/data-table/list-page'
import { listPage, parsePaging } from '~/components/data-table/paging'
import { roleLabel } from '~/schemas/security'
import { describeScope, loadScopeOptions, tableScopeIds } from './__scopes.server'
import { loadAllowed } from './__permissions.server'
import { CreateLink } from '~/components/layout/create-link'
import type { RouteHandle } from '~/utils/handle'
import { routeErrorBoundary } from '~/components/layout/route-error'

export const handle: RouteHandle = { docsTopic: 'role' }

type RoleRow = {
  id: number
  name: string
  label: string
  description: string
  builtIn: boolean
  users: number
  policies: string[]
}

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const paging = parsePaging(new URL(request.url))
  // issue 33: without a filter the cluster answers the page shown (`ordering=name`); the API filters
  // roles by exact name only, so a filter reads every role (one page of 500 at most)
  const [list, allowed] = await Promise.all([
    loadFromCluster(() =>
      paging.q
        ? listRoles(api).then((roles) => listPage(filterRoles(roles, paging.q), paging))
        : listOnePage<Role>(api, '/roles/', { ...paging, ordering: 'name', sortKey: (role) => role.name }).then(
            (page) => ({ ...page, rows: page.items, pageSize: paging.pageSize, q: paging.q }),
          ),
    ),
    loadAllowed(api),
  ])
  // the scopes the page's roles name, tables found by id (issue 33: not every table of the org)
  const scopes = await settle(() =>
    loadScopeOptions(api, { search: false, tableIds: tableScopeIds(list.rows.flatMap((role) => role.policies)) }),
  )
  const rows: RoleRow[] = list.rows.map((role) => ({
    id: role.id,
    name: role.name,
    label: roleLabel(role.name),
    description: role.description ?? '',
    builtIn: Boolean(role.built_in),
    users: role.users?.length ?? 0,
    policies: role.policies.map(
      (policy) =>
        `${describeScope(scopes.value ?? [], policy.scope_type, policy.scope_id)}: ` +
        `${policy.permissions.length} ${policy.permissions.length === 1 ? 'permission' : 'permissions'}`,
    ),
  }))
  return {
    rows,
    page: list.page,
    pageCount: list.pageCount,
    total: list.total,
    pageSize: paging.pageSize,
    q: paging.q,
    allowed,
  }
}

/** The roles whose name or label holds `q` (any case). */
function filterRoles(roles: Role[], q: string): Role[] {
  const needle = q.toLowerCase()
  return roles.filter(
    (role) => role.name.toLowerCase().includes(needle) || roleLabel(role.name).toLowerCase().includes(needle),
  )
}

const columns: Column<RoleRow>[] = [
  {
    key: 'name',
    header: 'Role',
    isRowHeader: true,
    cell: (row) => (
      <>
        <Link to={`/security/roles/${row.id}/edit-role`}>{row.label}</Link>
        {row.builtIn ? <span data-badge=""> built-in</span> : null}
        {row.description ? <div data-muted="">{row.description}</div> : null}
      </>
    ),
  },
  {
    key: 'policies',
    header: 'Policies',
    cell: (row) =>
      row.policies.length ? row.policies.map((text) => <div key={text}>{text}</div>) : <span data-muted="">None</span>,
  },
  { key: 'users', header: 'Users', cell: (row) => row.users },
]

export default function RolesRoute() {
  const data = useLoaderData<typeof loader>()
  return (
    <ListPage
      level={2}
      title="Roles"
      description="Built-in roles, and custom ones made of policies (permissions in a scope)."
      actions={
        <CreateLink to="/security/roles/new-role" colorPalette="blue" denied={data.allowed.addRole}>
          New role
        </CreateLink>
      }
      filter="Filter by role name"
      q={data.q}
      caption="Roles"
      columns={columns}
      rows={data.rows}
      rowKey={(row) => String(row.id)}
      empty={{ message: 'No roles yet.', action: { to: '/security/roles/new-role', label: 'Create a role' } }}
      noMatch={{ message: `No roles match “${data.q}”.`, clearTo: '/security/roles' }}
      paging={data}
    />
  )
}

export const meta: MetaFunction = () => [{ title: 'Roles · Security · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({
  title: 'The roles could not be loaded',
  level: 2,
  tryAgain: '/security/roles',
})
