import { redirect, type LoaderFunctionArgs } from '@remix-run/node'
import { requireSession } from '~/utils/session.server'

/** /system-health has no page of its own: Counts is the section's first tab. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireSession(request)
  return redirect('/system-health/counts')
}
