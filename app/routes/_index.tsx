import { redirect } from '@remix-run/node'

/** Spec section 2: `/` leads to the start page. */
export function loader() {
  return redirect('/dashboard')
}
