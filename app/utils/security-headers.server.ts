/**
 * The Content-Security-Policy of a page. Scripts run only from this site or inline with this
 * answer's nonce (Remix's hydration data and module loader carry it; nothing else is inline), so an
 * injected `<script>` never runs. Styles may be inline: Chakra/Emotion write them at runtime.
 * Frames: none may hold the console unless embedding is allowed.
 */
export function contentSecurityPolicy(nonce: string | null, allowEmbedding: boolean): string {
  const directives = [
    "default-src 'self'",
    nonce ? `script-src 'self' 'nonce-${nonce}'` : null,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    allowEmbedding ? null : "frame-ancestors 'none'",
  ]
  return directives.filter(Boolean).join('; ')
}

/**
 * Every security header of an answer, in one place: the CSP above, frames denied unless embedding
 * is allowed, no MIME sniffing, the referrer trimmed to the origin across sites. The express layer
 * (server/app.ts) sets them on every answer; entry.server sets them on pages when no server in
 * front did (`remix-serve`).
 */
export function securityHeaders(nonce: string | null, allowEmbedding: boolean): [string, string][] {
  return [
    ['Content-Security-Policy', contentSecurityPolicy(nonce, allowEmbedding)],
    ...(allowEmbedding ? [] : ([['X-Frame-Options', 'DENY']] as [string, string][])),
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ]
}
