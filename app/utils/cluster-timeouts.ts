/*
 * How long the console waits for the cluster (issue 54, point 4; decision 098). Safe on both sides:
 * the form's pending note says when the console gives up.
 */

/** Spec section 7: 300000 ms. Kept for queries, ingests and uploads, where a long wait is legitimate. */
export const REQUEST_TIMEOUT_MS = 300_000
/** A configuration read (GET): an answer this slow means the cluster is not answering. */
export const CONFIG_READ_TIMEOUT_MS = 10_000
/** A configuration change (POST, PUT, PATCH, DELETE under /config/v1). */
export const CONFIG_WRITE_TIMEOUT_MS = 20_000
