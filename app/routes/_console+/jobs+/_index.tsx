import { redirect } from '@remix-run/node'

/** /jobs has no page of its own: the sidebar's Jobs entry is the alter job list. */
export function loader() {
  return redirect('/jobs/alter-jobs')
}
