import { vitePlugin as remix } from '@remix-run/dev'
import { defineConfig } from 'vite'
import tsconfigPaths from 'vite-tsconfig-paths'
import { remixConfig } from './remix.config'

declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true
  }
}

export default defineConfig({
  plugins: [remix(remixConfig), tsconfigPaths()],
  optimizeDeps: {
    // Discovered lazily otherwise, and each discovery reloads the dev page.
    include: [
      'react-ace',
      'ace-builds',
      'plotly.js-basic-dist',
      '@conform-to/react',
      '@conform-to/zod/v4',
      'zod',
    ],
  },
  server: { hmr: { port: Number(process.env.HMR_PORT ?? 24678) } },
})
