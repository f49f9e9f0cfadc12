import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { ThemeFormSchema } from '~/schemas/auth'
import { commitColorMode, safeRedirect } from '~/utils/session.server'

/**
 * POST /resources/theme (the user menu's Light / Dark / System buttons): stores the theme in its
 * cookie and goes back to the page the form was on, which the server then renders in that theme.
 * A form, so it works without scripts; an unknown theme changes nothing.
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData()
  const parsed = ThemeFormSchema.safeParse({
    theme: form.get('theme'),
    redirectTo: form.get('redirectTo') ?? undefined,
  })
  const to = safeRedirect(form.get('redirectTo'))
  if (!parsed.success) return redirect(to)
  return redirect(to, { headers: { 'Set-Cookie': await commitColorMode(request, parsed.data.theme) } })
}

export function loader() {
  return redirect('/profile/settings')
}
