/**
 * Work the app leaves to finish when the server stops (server/index.ts runs it once the requests in
 * flight are answered): writes the app keeps back for a moment, such as the query history's
 * (decision 053). The server (run from source) and the app (bundled into build/server) are separate
 * module instances in production: they meet on one list kept under a global symbol.
 */
const KEY = Symbol.for('cluster-console.before-close')
const holder = globalThis as typeof globalThis & { [KEY]?: Set<() => Promise<void>> }
const tasks: Set<() => Promise<void>> = (holder[KEY] ??= new Set())

/** Runs `task` when the server stops (once per process, however often the module is loaded). */
export function beforeClose(task: () => Promise<void>): void {
  tasks.add(task)
}

/** Runs every task, each failure only logged; gives up waiting after `timeoutMs`. */
export async function runBeforeClose(timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const all = Promise.all(
    [...tasks].map((task) =>
      task().catch((error: unknown) =>
        console.warn(`Before close: ${error instanceof Error ? error.message : String(error)}`),
      ),
    ),
  )
  await Promise.race([all, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))])
  clearTimeout(timer)
}
