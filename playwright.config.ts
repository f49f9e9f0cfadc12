import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defineConfig, devices } from '@playwright/test'
import { ADMIN_EMAIL, ADMIN_PASSWORD, E2E_BASE_URL, E2E_CLUSTER_PORT, E2E_PORT, SESSION_SECRET } from './e2e/env'

const isCI = Boolean(process.env.CI)

// Debian's Chromium, never a downloaded one; the flags keep it quiet on a closed network.
const chromium = {
  ...devices['Desktop Chrome'],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  },
}

// A fresh cluster data directory per run, one per port so runs do not pile up directories. The
// config is loaded again in every worker; only the runner, when it starts the server, wipes it.
const isRunner = process.env.TEST_WORKER_INDEX === undefined
const isReusingServer = process.env.E2E_REUSE_SERVER === '1'
const clusterDataDir = process.env.E2E_CLUSTER_DATA_DIR ?? join(tmpdir(), `console-e2e-cluster-${E2E_PORT}`)
if (isRunner && !isReusingServer && !process.env.E2E_CLUSTER_DATA_DIR)
  rmSync(clusterDataDir, { recursive: true, force: true })

/** The specs whose cluster faults reach every caller (see projects). */
const WHOLE_CLUSTER_FAULTS = '**/error-catalogue.spec.ts'

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: false,
  workers: isCI ? 1 : 2,
  retries: isCI ? 1 : 0,
  forbidOnly: isCI,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: isCI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  use: {
    baseURL: E2E_BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  // error-catalogue.spec.ts sets faults for every caller of the cluster (the projects list of the
  // whole org, say): it runs last and alone, its js run then its no-js one, so no other spec's page
  // or setup call meets its faults when two workers run at once.
  projects: [
    { name: 'js', use: { ...chromium, javaScriptEnabled: true }, testIgnore: WHOLE_CLUSTER_FAULTS },
    { name: 'no-js', use: { ...chromium, javaScriptEnabled: false }, testIgnore: WHOLE_CLUSTER_FAULTS },
    {
      name: 'js-faults',
      use: { ...chromium, javaScriptEnabled: true },
      testMatch: WHOLE_CLUSTER_FAULTS,
      dependencies: ['js', 'no-js'],
    },
    {
      name: 'no-js-faults',
      use: { ...chromium, javaScriptEnabled: false },
      testMatch: WHOLE_CLUSTER_FAULTS,
      dependencies: ['js-faults'],
    },
  ],
  webServer: {
    // The built console (npm run test:e2e builds first) in local-cluster mode: no CLUSTER_URL, so
    // the server starts the local cluster in its own process on a fresh data directory.
    command: 'npx tsx server/index.ts',
    url: `${E2E_BASE_URL}/healthz`,
    timeout: 180_000,
    // E2E_REUSE_SERVER=1 runs the specs against a console already listening on E2E_PORT (same login).
    reuseExistingServer: isReusingServer,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'production',
      PORT: String(E2E_PORT),
      CLUSTER_URL: '',
      CLUSTER_PORT: String(E2E_CLUSTER_PORT),
      CLUSTER_DATA_DIR: clusterDataDir,
      // The sample table with a thousand rows, not the default million: a faster first start.
      CLUSTER_SEED_ROWS: '1000',
      // The fault switch (cluster/README.md), for e2e/error-catalogue.spec.ts.
      CLUSTER_FAULTS: '1',
      // A render that reads the clock answers 500, so the spec that opened it fails (issue 34).
      RENDER_CLOCK_CHECK: 'throw',
      // A batch job from an unreachable bucket fails after a second, not the served default's 30 s.
      CLUSTER_BATCH_SOURCE_WAIT_MS: '1000',
      // No proxy in front: forwarded headers are not believed (e2e/hardening.spec.ts; issue 49).
      TRUST_PROXY: '',
      CLUSTER_ADMIN_EMAIL: ADMIN_EMAIL,
      CLUSTER_ADMIN_PASSWORD: ADMIN_PASSWORD,
      SESSION_SECRET,
    },
  },
})
