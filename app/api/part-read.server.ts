import { ClusterError } from './errors.server'

/*
 * One part of a page read on its own (issue 54, point 6): a page whose user may read the page's
 * object but not everything around it (a project-scoped role reads its table, not the table's
 * transforms or statistics) shows what the role allows and marks each part it refuses, in place.
 * Beside the policies of policies.server.ts: where `settle` turns any cluster failure into a
 * panel's message, `readPart` tells a refusal (403) from a failure, so the part can say that the
 * user may not see it rather than that it is broken.
 */

export type PartRead<T> =
  | { value: T; denied: false; error: null }
  /** The cluster refused this read to the signed-in user (403). */
  | { value: null; denied: true; error: null }
  /** Any other cluster failure: the catalogue's message. */
  | { value: null; denied: false; error: string }

/**
 * Runs one part's read: its value; a 403 becomes `{ denied: true }`, another ClusterError that
 * part's message (the page stays). Other errors are thrown. (A 401 never gets here: the client
 * has ended the session.)
 */
export async function readPart<T>(load: () => Promise<T>): Promise<PartRead<T>> {
  try {
    return { value: await load(), denied: false, error: null }
  } catch (error) {
    if (!(error instanceof ClusterError)) throw error
    if (error.status === 403) return { value: null, denied: true, error: null }
    return { value: null, denied: false, error: error.message }
  }
}
