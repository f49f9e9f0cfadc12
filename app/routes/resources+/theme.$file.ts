import type { LoaderFunctionArgs } from '@remix-run/node'
import { themeStylesheet } from '~/utils/theme-stylesheet.server'

/**
 * The theme's global CSS and tokens as one stylesheet (decision 020): `/resources/theme/<hash>.css`
 * is immutable and cached for a year; any other name (an older hash, `current.css`) gets the
 * current sheet, revalidated on every use.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const { css, hash } = themeStylesheet()
  const isCurrent = params.file === `${hash}.css`
  return new Response(css, {
    headers: {
      'Content-Type': 'text/css; charset=utf-8',
      'Cache-Control': isCurrent ? 'public, max-age=31536000, immutable' : 'no-cache',
      ETag: `"${hash}"`,
    },
  })
}
