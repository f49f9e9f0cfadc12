import { createContext, useContext } from 'react'

/**
 * The request's CSP nonce (server/app.ts securityHeaders), given by entry.server to the inline
 * scripts Remix writes. In the browser it is undefined: scripts are already running by then.
 */
export const NonceContext = createContext<string | undefined>(undefined)

export function useNonce(): string | undefined {
  return useContext(NonceContext)
}
