import { redirect } from '@remix-run/node'

/** /security is the Users tab (the sidebar's Security entry). */
export function loader() {
  return redirect('/security/users')
}
