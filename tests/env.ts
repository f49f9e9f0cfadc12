// Console tests talk to `http://cluster.test`, which tests/msw.ts routes to the local cluster's handler.
export const TEST_CLUSTER_URL = 'http://cluster.test'
export const TEST_CONSOLE_URL = 'http://console.test'
export const TEST_SESSION_SECRET = 'test-session-secret-0123456789'
export const TEST_SUPPORT_EMAIL = 'support@example.com'

process.env.CLUSTER_URL = TEST_CLUSTER_URL
process.env.SESSION_SECRET = TEST_SESSION_SECRET
process.env.SUPPORT_EMAIL = TEST_SUPPORT_EMAIL
process.env.NODE_ENV = 'test'
