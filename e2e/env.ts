/**
 * What the e2e suite and the console it starts agree on: the port and the local cluster's admin
 * login. Fixed values so specs know how to log in; a fresh data directory per run (playwright.config.ts).
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210)
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`
export const ADMIN_EMAIL = process.env.E2E_ADMIN_EMAIL ?? 'admin@console.test'
export const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? 'e2e-admin-password-1'
export const SESSION_SECRET = process.env.E2E_SESSION_SECRET ?? 'e2e-session-secret-not-for-production'
/** The e2e console's local cluster listens here, so a spec can start a second console on the same cluster. */
export const E2E_CLUSTER_PORT = E2E_PORT + 100
