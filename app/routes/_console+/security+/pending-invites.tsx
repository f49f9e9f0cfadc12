import { Stack } from '~/components/ui/stack'
import { Button } from '~/components/ui/button'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react'
import { requireApi } from '~/api/client.server'
import { deleteInvite, listPendingInvites, resendInvite } from '~/api/invites.server'
import { loadFromCluster, toastOnFailure } from '~/api/policies.server'
import { type Column } from '~/components/data-table/data-table'
import { ListPage } from '~/components/data-table/list-page'
import { listPage, parsePaging } from '~/components/data-table/paging'
import { ConfirmPanel } from '~/components/forms/confirm-panel'
import { DateTime } from '~/components/layout/date-time'
import { roleLabel } from '~/schemas/security'
import { redirectWithToast } from '~/utils/toast.server'
import { useHrefWith } from '~/utils/use-href-with'
import { describeScope, loadScopeOptions, tableScopeIds } from './__scopes.server'
import { settle } from '~/api/policies.server'
import { Denied } from '~/components/layout/denied'
import { loadAllowed } from './__permissions.server'
import { InlineAlert } from '~/components/layout/inline-alert'
import { CreateLink } from '~/components/layout/create-link'
import type { RouteHandle } from '~/utils/handle'
import { routeErrorBoundary } from '~/components/layout/route-error'

export const handle: RouteHandle = { docsTopic: 'user' }

export const RESEND_INTENT = 'resend-invite'
export const DELETE_INVITE_INTENT = 'delete-invite'

type InviteRow = {
  id: string
  email: string
  roles: string
  scope: string
  invitedBy: string
  sent: string
  sentCount: number
}

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  const url = new URL(request.url)
  const paging = parsePaging(url)
  const [invites, allowed] = await Promise.all([loadFromCluster(() => listPendingInvites(api)), loadAllowed(api)])
  // the scopes the invites name, tables found by id (issue 33: not every table of the org); the
  // projects are read only when an invite names a project or a table (an org's 50 projects otherwise)
  const isScoped = invites.some((invite) => invite.scope_type === 'project' || invite.scope_type === 'table')
  const scopes = isScoped
    ? await settle(() => loadScopeOptions(api, { search: false, tableIds: tableScopeIds(invites) }))
    : { value: [], error: null }
  const needle = paging.q.toLowerCase()
  const rows: InviteRow[] = invites
    .filter((invite) => !needle || invite.email.toLowerCase().includes(needle))
    .map((invite) => ({
      id: String(invite.id),
      email: invite.email,
      roles: (invite.roles ?? []).map(roleLabel).join(', '),
      scope: describeScope(scopes.value ?? [], invite.scope_type, invite.scope_id),
      invitedBy: invite.invited_by ?? '',
      sent: invite.sent ?? invite.created ?? '',
      sentCount: invite.sent_count ?? 1,
    }))
  const deleteId = url.searchParams.get('delete')
  const toDelete = deleteId ? invites.find((invite) => String(invite.id) === deleteId) : undefined
  return {
    ...listPage(rows, paging),
    allowed,
    confirmDelete: toDelete ? { id: String(toDelete.id), email: toDelete.email } : null,
  }
}

/** Resends or deletes an invite; back to the list (filter and paging kept) with a toast either way. */
export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApi(request)
  const formData = await request.formData()
  const intent = formData.get('intent')
  const inviteId = String(formData.get('invite') ?? '')
  const email = String(formData.get('email') ?? '') || 'the user'
  if (!inviteId) throw data({ message: 'Which invite? The form sent no invite id.' }, { status: 400 })
  const back = listUrl(request)
  if (intent !== RESEND_INTENT && intent !== DELETE_INVITE_INTENT)
    throw data({ message: 'Unknown action' }, { status: 400 })
  return toastOnFailure(back, async () => {
    if (intent === RESEND_INTENT) {
      await resendInvite(api, inviteId)
      return redirectWithToast(back, { title: `Invite sent again to ${email}`, type: 'success' })
    }
    await deleteInvite(api, inviteId)
    return redirectWithToast(back, { title: `Invite for ${email} deleted`, type: 'success' })
  })
}

function listUrl(request: Request): string {
  const url = new URL(request.url)
  url.searchParams.delete('delete')
  url.searchParams.delete('index')
  const search = url.searchParams.toString()
  return `/security/pending-invites${search ? `?${search}` : ''}`
}

export default function PendingInvitesRoute() {
  const data = useLoaderData<typeof loader>()
  const hrefWith = useHrefWith()
  const navigation = useNavigation()
  const columns: Column<InviteRow>[] = [
    {
      key: 'email',
      header: 'Email',
      isRowHeader: true,
      cell: (row) => row.email,
    },
    { key: 'roles', header: 'Role', cell: (row) => row.roles || '—' },
    { key: 'scope', header: 'Scope', cell: (row) => row.scope },
    {
      key: 'sent',
      header: 'Sent',
      cell: (row) => (
        <>
          <DateTime value={row.sent} />
          {row.sentCount > 1 ? <span data-muted=""> ({row.sentCount} times)</span> : null}
          {row.invitedBy ? <div data-muted="">by {row.invitedBy}</div> : null}
        </>
      ),
    },
    {
      key: 'actions',
      header: 'Actions',
      cell: (row) => (
        <Stack direction="row" gap="3" align="center">
          {data.allowed.resendInvite ? (
            <Denied size="xs" label="Resend" reason={data.allowed.resendInvite} />
          ) : (
            <Form method="post">
              <input type="hidden" name="intent" value={RESEND_INTENT} />
              <input type="hidden" name="invite" value={row.id} />
              <input type="hidden" name="email" value={row.email} />
              <Button
                type="submit"
                size="xs"
                variant="outline"
                aria-label={`Resend the invite to ${row.email}`}
                loading={navigation.state === 'submitting' && navigation.formData?.get('invite') === row.id}
              >
                Resend
              </Button>
            </Form>
          )}
          {data.allowed.deleteInvite ? (
            <span data-muted="">Delete: {data.allowed.deleteInvite.toLowerCase()}</span>
          ) : (
            <Link to={hrefWith({ delete: row.id })} aria-label={`Delete the invite for ${row.email}`}>
              Delete…
            </Link>
          )}
        </Stack>
      ),
    },
  ]
  return (
    <ListPage
      level={2}
      title="Pending invites"
      description={`${data.total} ${
        data.total === 1 ? 'invite' : 'invites'
      } not accepted yet. Resend one whose link was lost or expired (links last 7 days).`}
      actions={
        <CreateLink to="/security/users/invite-new-user" colorPalette="blue" denied={data.allowed.inviteUser}>
          Invite user
        </CreateLink>
      }
      filter="Filter by email"
      q={data.q}
      caption="Pending invites"
      columns={columns}
      rows={data.rows}
      rowKey={(row) => row.id}
      empty={{
        message: 'No pending invites: everyone invited has signed in.',
        action: { to: '/security/users/invite-new-user', label: 'Invite a user' },
      }}
      noMatch={{ message: `No pending invites match “${data.q}”.`, clearTo: '/security/pending-invites' }}
      paging={data}
    >
      {data.confirmDelete && data.allowed.deleteInvite ? (
        <InlineAlert title="You cannot delete invites">{data.allowed.deleteInvite}</InlineAlert>
      ) : data.confirmDelete ? (
        <ConfirmPanel
          id="delete-invite"
          title={`Delete the invite for ${data.confirmDelete.email}?`}
          intent={DELETE_INVITE_INTENT}
          hiddenFields={{
            invite: data.confirmDelete.id,
            email: data.confirmDelete.email,
          }}
          confirmLabel="Delete invite"
        >
          The link already sent to {data.confirmDelete.email} stops working. You can invite them again later.
        </ConfirmPanel>
      ) : null}
    </ListPage>
  )
}

export const meta: MetaFunction = () => [{ title: 'Pending invites · Security · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({
  title: 'The invites could not be loaded',
  level: 2,
  tryAgain: '/security/pending-invites',
})
