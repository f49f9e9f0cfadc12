import { vitePlugin as remix } from '@remix-run/dev'
import { defineConfig, type Plugin } from 'vite'
import tsconfigPaths from 'vite-tsconfig-paths'
import { remixConfig } from './remix.config'
import { clientZodWithoutJsonSchema } from './vite/client-zod-without-json-schema'
import { bundleReport } from './vite/bundle-report'
import { clientChakraWithoutPreflight } from './vite/client-chakra-without-preflight'
import { oneShellChunk } from './vite/one-shell-chunk'
import { guardedConformParse } from './vite/guarded-conform-parse'
import { pureSchemaModules } from './vite/pure-schema-modules'

declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true
  }
}

// BASE_PATH=/console builds a console served under that sub-path behind a proxy (decision 023):
// Vite's base for the assets, Remix's basename for routes, links, forms and redirects. BUILD_DIR
// puts such a build beside the default one (the e2e's second build).
const basePath = (process.env.BASE_PATH ?? '').trim().replace(/^\/+|\/+$/g, '')
const buildDirectory = process.env.BUILD_DIR || 'build'
// VITE_SWAPS_OFF=one-shell-chunk,… builds without those size swaps, for `npm run bench ab` to weigh
// each one (decision 081); guarded-conform-parse is for correctness and cannot be turned off.
const swapsOff = new Set((process.env.VITE_SWAPS_OFF ?? '').split(',').filter(Boolean))
const unlessOff = (name: string, plugin: () => Plugin) => (swapsOff.has(name) ? [] : [plugin()])

export default defineConfig({
  base: basePath ? `/${basePath}/` : '/',
  plugins: [
    ...(process.env.BUNDLE_REPORT ? [bundleReport()] : []),
    guardedConformParse(),
    ...unlessOff('client-zod-without-json-schema', clientZodWithoutJsonSchema),
    ...unlessOff('client-chakra-without-preflight', clientChakraWithoutPreflight),
    ...unlessOff('one-shell-chunk', oneShellChunk),
    ...unlessOff('pure-schema-modules', pureSchemaModules),
    remix({ ...remixConfig, basename: basePath ? `/${basePath}` : '/', buildDirectory }),
    tsconfigPaths(),
  ],
  optimizeDeps: {
    // Discovered lazily otherwise, and each discovery reloads the dev page.
    include: ['react-ace', 'ace-builds', 'plotly.js-basic-dist', '@conform-to/react', '@conform-to/zod/v4', 'zod'],
  },
  build: {
    // Chrome 94, Firefox 93, Safari 15.4 and later: class fields and the like stay as written (decision 027).
    target: 'es2022',
    rollupOptions: {
      // Chakra's anatomy module builds every component's anatomy at load (`createAnatomy(...).parts(...)`):
      // marked pure, the ones no recipe uses are dropped from the shell (decision 027).
      treeshake: {
        manualPureFunctions: ['createAnatomy'],
        // @emotion/react imports hoist-non-react-statics for its side effects (it has none); only
        // withTheme, which the console does not use, needs it.
        moduleSideEffects: (id) => !/[\\/]node_modules[\\/](hoist-non-react-statics|react-is)[\\/]/.test(id),
      },
    },
  },
  server: { hmr: { port: Number(process.env.HMR_PORT ?? 24678) } },
})
