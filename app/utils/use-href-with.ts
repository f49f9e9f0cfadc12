import { useLocation } from '@remix-run/react'

/**
 * Returns a function that gives the current URL with some parameters changed (null removes one),
 * for links that open or close a step (`?delete=<id>`, `?purge`, `?job=<id>`) on the same page.
 */
export function useHrefWith() {
  const location = useLocation()
  return (changes: Record<string, string | null>) => {
    const params = new URLSearchParams(location.search)
    // Remix adds `?index` to a form posted to an index route; it is not part of the page's URL.
    params.delete('index')
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) params.delete(key)
      else params.set(key, value)
    }
    const search = params.toString()
    return `${location.pathname}${search ? `?${search}` : ''}`
  }
}
