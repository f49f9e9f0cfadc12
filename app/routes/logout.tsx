import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { logout } from '~/utils/session.server'

/** Logout is a POST only (a GET cannot end a session): clears every console cookie, then /login. */
export async function action({ request }: ActionFunctionArgs) {
  return logout(request)
}

export function loader() {
  return redirect('/dashboard')
}
