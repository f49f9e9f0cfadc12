import { isRouteErrorResponse } from '@remix-run/react'

/** The message a thrown error carries for users: the catalogue message from `data({message})`. */
export function errorMessage(error: unknown): string {
  if (isRouteErrorResponse(error)) {
    const body = error.data as unknown
    if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') return body.message
    if (typeof body === 'string' && body) return body
    if (error.status === 404) return `404 Error: ${error.statusText || 'Not Found'}.`
    return error.statusText || 'Something went wrong'
  }
  return 'Something went wrong'
}

/**
 * The "Try again" link of a list's error panel, or none when the cluster refused the user (403):
 * loading the page again cannot help then; the message says what permission is missing.
 */
export function tryAgain(error: unknown, to: string): { to: string; label: string } | undefined {
  if (isRouteErrorResponse(error) && error.status === 403) return undefined
  return { to, label: 'Try again' }
}
