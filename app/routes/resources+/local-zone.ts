import type { ActionFunctionArgs } from '@remix-run/node'
import { commitLocalZone, getLocalZone, requireSession } from '~/utils/session.server'
import { isZoneName } from '~/utils/timezone'

/**
 * POST /resources/local-zone `zone=<IANA name>`: with scripts, the console layout reports the
 * browser's zone once (and again when it changes) for a "Local" preference; the server then renders
 * "Local" times in it, so pages read the same before and after they hydrate (issue 35). Signed in
 * only; an unknown zone changes nothing.
 */
export async function action({ request }: ActionFunctionArgs) {
  await requireSession(request)
  const zone = (await request.formData()).get('zone')
  // a Response, not data(): a resource route's data() drops its headers, and the cookie is the point
  if (typeof zone !== 'string' || !isZoneName(zone)) return new Response(null, { status: 400 })
  if ((await getLocalZone(request)) === zone) return new Response(null, { status: 204 })
  return new Response(null, { status: 204, headers: { 'Set-Cookie': await commitLocalZone(request, zone) } })
}
