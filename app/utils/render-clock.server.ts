import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * A server render must not read the clock (issue 34): the browser renders the page again when it
 * hydrates, at another "now", so HTML that depends on the clock differs between the two (a hydration
 * mismatch, and a no-script page that disagrees with the scripted one). Work out anything relative to
 * now in the loader and hand the render the result. (The page cache that first asked for this, decision
 * 033, is gone: decision 110.)
 *
 * With `RENDER_CLOCK_CHECK=throw` (the e2e server sets it), `Date.now()` and `new Date()` with no
 * argument throw while a page renders, so the page answers 500 and the spec that opened it fails,
 * naming the read. The check follows the render through its async work (AsyncLocalStorage), and
 * nothing outside a render (loaders, actions, timers started elsewhere) is affected. Off (the
 * default), nothing is patched.
 */
const KEY = Symbol.for('cluster-console.render-clock')
const holder = globalThis as typeof globalThis & { [KEY]?: AsyncLocalStorage<string> }
const rendering: AsyncLocalStorage<string> = (holder[KEY] ??= new AsyncLocalStorage<string>())

export class RenderReadTheClock extends Error {
  constructor(what: string, url: string) {
    super(
      `${what} was read while rendering ${url}: the browser's render reads another "now" (issue 34). ` +
        'Work it out in the loader instead.',
    )
    this.name = 'RenderReadTheClock'
  }
}

let installed = false

/** Patches the clock once per process when the check is on; returns whether it is on. */
export function installRenderClockCheck(mode = process.env.RENDER_CLOCK_CHECK): boolean {
  if (mode !== 'throw') return false
  if (installed) return true
  installed = true
  const RealDate = Date
  const RealError = Error
  const realNow = RealDate.now.bind(RealDate)
  const refuse = (what: string) => {
    const url = rendering.getStore()
    if (url === undefined) return
    // A library's own read is not the console's to move: conform makes list keys from the clock and
    // a random number (React keys, never in the HTML). The frame after `now`/`CheckedDate` decides.
    const caller = new RealError().stack?.split('\n')[3] ?? ''
    if (caller.includes('/node_modules/')) return
    throw new RenderReadTheClock(what, url)
  }
  // A subclass, so `instanceof Date`, `Date.parse` and `Date.UTC` behave as before.
  class CheckedDate extends RealDate {
    constructor(...args: ConstructorParameters<typeof Date> | []) {
      if (args.length === 0) refuse('new Date()')
      // @ts-expect-error -- forwards the arguments as given, whichever overload they are
      super(...args)
    }
    static override now() {
      refuse('Date.now()')
      return realNow()
    }
  }
  globalThis.Date = CheckedDate as DateConstructor
  return true
}

/** Runs `render` (and everything it starts) as the render of `url`. */
export function asRender<T>(url: string, render: () => T): T {
  return rendering.run(url, render)
}

/** Runs `next` outside any render (the page's bookkeeping once React has finished with it). */
export function outsideRender<T>(next: () => T): T {
  return rendering.exit(next)
}
