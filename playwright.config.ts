import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defineConfig, devices } from '@playwright/test'
import { ADMIN_EMAIL, ADMIN_PASSWORD, E2E_BASE_URL, E2E_PORT, SESSION_SECRET } from './e2e/env'

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

// The config is loaded again in every worker; only the runner starts the server and needs the
// fresh data directory.
const isRunner = process.env.TEST_WORKER_INDEX === undefined
const clusterDataDir =
  process.env.E2E_CLUSTER_DATA_DIR ??
  (isRunner ? mkdtempSync(join(tmpdir(), 'console-e2e-cluster-')) : '')

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
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
  projects: [
    { name: 'js', use: { ...chromium, javaScriptEnabled: true } },
    { name: 'no-js', use: { ...chromium, javaScriptEnabled: false } },
  ],
  webServer: {
    // The built console (npm run test:e2e builds first) in local-cluster mode: no CLUSTER_URL, so
    // the server starts the local cluster in its own process on a fresh data directory.
    command: 'npx tsx server/index.ts',
    url: `${E2E_BASE_URL}/healthz`,
    timeout: 180_000,
    // E2E_REUSE_SERVER=1 runs the specs against a console already listening on E2E_PORT (same login).
    reuseExistingServer: process.env.E2E_REUSE_SERVER === '1',
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'production',
      PORT: String(E2E_PORT),
      CLUSTER_URL: '',
      CLUSTER_DATA_DIR: clusterDataDir,
      CLUSTER_ADMIN_EMAIL: ADMIN_EMAIL,
      CLUSTER_ADMIN_PASSWORD: ADMIN_PASSWORD,
      SESSION_SECRET,
    },
  },
})
