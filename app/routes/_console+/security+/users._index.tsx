import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { loadFromCluster, toastOnFailure } from '~/api/policies.server'
import { deleteUser, getUser, listUsers, type User } from '~/api/users.server'
import { listOnePage } from '~/api/list-all.server'
import { type Column } from '~/components/data-table/data-table'
import { ListPage } from '~/components/data-table/list-page'
import { listPage, parsePaging } from '~/components/data-table/paging'
import { ConfirmPanel } from '~/components/forms/confirm-panel'
import { InlineAlert } from '~/components/layout/inline-alert'
import { roleLabel } from '~/schemas/security'
import { redirectWithToast } from '~/utils/toast.server'
import { useHrefWith } from '~/utils/use-href-with'
import { loadAllowed } from './__permissions.server'
import { CreateLink } from '~/components/layout/create-link'
import type { RouteHandle } from '~/utils/handle'
import { routeErrorBoundary } from '~/components/layout/route-error'

export const handle: RouteHandle = { docsTopic: 'user' }

export const DELETE_USER_INTENT = 'delete-user'
/** Why the signed-in user's own row has no Delete (the cluster refuses it too). */
export const SELF_DELETE_REASON = 'You cannot delete yourself: you are signed in as this user. Another org admin can.'

type UserRow = {
  uuid: string
  email: string
  name: string
  roles: string[]
  status: string
  kind: string
  isSelf: boolean
}

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const paging = parsePaging(url)
  const deleteId = url.searchParams.get('delete')
  // issue 33: without a filter the cluster answers the page shown (`ordering=email`); the API filters
  // users by exact email only, so a filter reads every user (through the read cache)
  const [list, allowed, toDelete] = await Promise.all([
    loadFromCluster(() =>
      paging.q
        ? listUsers(api).then((users) => listPage(filterUsers(users, paging.q), paging))
        : listOnePage<User>(api, '/users/', { ...paging, ordering: 'email', sortKey: (user) => user.email }).then(
            (page) => ({ ...page, rows: page.items, pageSize: paging.pageSize, q: paging.q }),
          ),
    ),
    loadAllowed(api),
    deleteId ? getUser(api, deleteId).catch(() => null) : null,
  ])
  const rows: UserRow[] = list.rows.map((user) => ({
    uuid: user.uuid,
    email: user.email,
    name: user.name && user.name !== user.email ? user.name : '',
    roles: user.roles ?? [],
    status: user.status ?? 'active',
    kind: user.type === 'service_account' || user.is_service_account ? 'Service account' : 'User',
    isSelf: user.uuid === api.userId,
  }))
  return {
    rows,
    page: list.page,
    pageCount: list.pageCount,
    total: list.total,
    pageSize: paging.pageSize,
    q: paging.q,
    allowed,
    confirmDelete: toDelete
      ? { uuid: toDelete.uuid, email: toDelete.email, isSelf: toDelete.uuid === api.userId }
      : null,
  }
}

/** The users whose email or name holds `q` (any case), sorted by email. */
function filterUsers(users: User[], q: string): User[] {
  const needle = q.toLowerCase()
  return users
    .filter((user) => user.email.toLowerCase().includes(needle) || (user.name ?? '').toLowerCase().includes(needle))
    .sort((a, b) => a.email.localeCompare(b.email))
}

/** Deletes a user after the confirmation; never the signed-in user. Back to the list with a toast. */
export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const formData = await request.formData()
  if (formData.get('intent') !== DELETE_USER_INTENT) throw data({ message: 'Unknown action' }, { status: 400 })
  const userId = String(formData.get('user') ?? '')
  const email = String(formData.get('email') ?? '') || 'The user'
  const back = listUrl(request)
  if (!userId) throw data({ message: 'Which user? The form sent no user id.' }, { status: 400 })
  if (userId === api.userId) return redirectWithToast(back, { title: SELF_DELETE_REASON, type: 'error' })
  return toastOnFailure(back, async () => {
    await deleteUser(api, userId)
    return redirectWithToast(back, { title: `${email} deleted`, type: 'success' })
  })
}

/** The list's URL with its filter and paging, the delete step closed. */
function listUrl(request: Request): string {
  const url = new URL(request.url)
  url.searchParams.delete('delete')
  url.searchParams.delete('index')
  const search = url.searchParams.toString()
  return `/security/users${search ? `?${search}` : ''}`
}

export default function UsersRoute() {
  const data = useLoaderData<typeof loader>()
  const hrefWith = useHrefWith()
  const columns: Column<UserRow>[] = [
    {
      key: 'email',
      header: 'Email',
      isRowHeader: true,
      cell: (row) => (
        <>
          <Link to={`/security/users/${row.uuid}/edit-user`}>{row.email}</Link>
          {row.isSelf ? <span data-muted=""> (you)</span> : null}
          {row.name ? <div data-muted="">{row.name}</div> : null}
        </>
      ),
    },
    { key: 'kind', header: 'Type', cell: (row) => row.kind },
    {
      key: 'roles',
      header: 'Roles',
      cell: (row) => (row.roles.length ? row.roles.map(roleLabel).join(', ') : <span data-muted="">No roles</span>),
    },
    {
      key: 'status',
      header: 'Status',
      cell: (row) => <span data-badge={row.status}>{row.status === 'pending' ? 'Invited' : 'Active'}</span>,
    },
    {
      key: 'actions',
      header: 'Actions',
      cell: (row) => (
        <>
          <Link
            to={`/security/users/${row.uuid}/edit-user`}
            aria-label={`${data.allowed.editUser ? 'Roles' : 'Edit roles'} of ${row.email}`}
          >
            {data.allowed.editUser ? 'Roles' : 'Edit roles'}
          </Link>
          {' · '}
          {data.allowed.deleteUser ? (
            <span data-muted="">Delete: {data.allowed.deleteUser.toLowerCase()}</span>
          ) : row.isSelf ? (
            <span data-muted="" title={SELF_DELETE_REASON}>
              Delete not available: this is you
            </span>
          ) : (
            <Link to={hrefWith({ delete: row.uuid })} aria-label={`Delete ${row.email}`}>
              Delete…
            </Link>
          )}
        </>
      ),
    },
  ]
  return (
    <ListPage
      level={2}
      title="Users"
      description={`${data.total} ${data.total === 1 ? 'user' : 'users'}. Invited users show until they set a password.`}
      actions={
        <CreateLink to="/security/users/invite-new-user" colorPalette="blue" denied={data.allowed.inviteUser}>
          Invite user
        </CreateLink>
      }
      filter="Filter by email or name"
      q={data.q}
      caption="Users"
      columns={columns}
      rows={data.rows}
      rowKey={(row) => row.uuid}
      empty={{
        message: 'No users yet.',
        action: { to: '/security/users/invite-new-user', label: 'Invite the first user' },
      }}
      noMatch={{ message: `No users match “${data.q}”.`, clearTo: '/security/users' }}
      paging={data}
    >
      {data.confirmDelete ? (
        data.allowed.deleteUser ? (
          <InlineAlert title="You cannot delete users">{data.allowed.deleteUser}</InlineAlert>
        ) : data.confirmDelete.isSelf ? (
          <InlineAlert title="You cannot delete yourself">{SELF_DELETE_REASON}</InlineAlert>
        ) : (
          <ConfirmPanel
            id="delete-user"
            title={`Delete ${data.confirmDelete.email}?`}
            intent={DELETE_USER_INTENT}
            hiddenFields={{ user: data.confirmDelete.uuid, email: data.confirmDelete.email }}
            confirmLabel="Delete user"
          >
            {data.confirmDelete.email} will no longer be able to sign in, and loses every role. This cannot be undone;
            invite them again to bring them back.
          </ConfirmPanel>
        )
      ) : null}
    </ListPage>
  )
}

export const meta: MetaFunction = () => [{ title: 'Users · Security · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({
  title: 'The users could not be loaded',
  level: 2,
  tryAgain: '/security/users',
})
