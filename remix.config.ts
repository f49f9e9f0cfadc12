import type { VitePluginConfig } from '@remix-run/dev'
import { flatRoutes } from 'remix-flat-routes'

/**
 * The Remix Vite plugin's options. Nothing reads this file by itself (the classic compiler only
 * reads .js): vite.config.ts imports it and passes it to `remix()`.
 */
export const remixConfig = {
  ignoredRouteFiles: ['**/*'],
  routes: async (defineRoutes) =>
    flatRoutes('routes', defineRoutes, {
      // `__helper` files beside a route and tests are never routes.
      ignoredRouteFiles: ['**/.*', '**/*.test.*', '**/__*'],
    }),
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_singleFetch: true,
    v3_lazyRouteDiscovery: true,
  },
} satisfies VitePluginConfig

export default remixConfig
