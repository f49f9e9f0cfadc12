import { defineConfig } from 'vitest/config'
import tsconfigPaths from 'vite-tsconfig-paths'
import { guardedConformParse } from './vite/guarded-conform-parse'

// Kept apart from vite.config.ts so vitest never loads the Remix plugin or collects Playwright specs.
export default defineConfig({
  plugins: [guardedConformParse(), tsconfigPaths()],
  test: {
    include: ['app/**/*.test.{ts,tsx}', 'server/**/*.test.ts', 'cluster/**/*.test.ts', 'tests/**/*.test.{ts,tsx}'],
    // chdb's engine is a per-process singleton bound to one data directory: one process per test file.
    pool: 'forks',
    isolate: true,
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    setupFiles: ['tests/setup.ts'],
  },
})
