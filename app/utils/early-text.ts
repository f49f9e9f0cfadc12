import { useEffect, useLayoutEffect } from 'react'

/**
 * React 18 sets a textarea it hydrates back to the text the server rendered (ReactDOMTextarea's
 * postMountWrapper), so text typed while a page's scripts load was lost: SQL in the query editor or
 * an alter job, a description. Inputs and selects keep theirs. This inline script (first in the
 * body, with the page's nonce) keeps the last text of each textarea typed in before hydration;
 * `useRestoreEarlyText` puts it back once React has the page. Its text is the server's only: the
 * browser hydrates the element the script has already run in (`suppressHydrationWarning`), so the
 * browser build leaves the text out of every page's shell (decision 075).
 */
export const EARLY_TEXT_SCRIPT = !import.meta.env.SSR
  ? ''
  : '(function(){var m=new ' +
    "WeakMap();window.__consoleEarlyText=m;document.addEventListener('input',function(e){var " +
    't=e.target;if(t instanceof ' +
    "HTMLTextAreaElement&&!document.documentElement.hasAttribute('data-hydrated'))m.set(t,t.value)},true)})()"

declare global {
  interface Window {
    __consoleEarlyText?: WeakMap<HTMLTextAreaElement, string>
  }
}

/**
 * Sets a textarea's text so that React's onChange hears the input event that follows. React watches
 * `value` through a setter on the element itself (its value tracker): an input event whose text
 * equals what the tracker holds is dropped. The element's setter gives the tracker another text,
 * then the prototype's setter (which the tracker does not see) the real one. This is how testing
 * tools fire a change React hears.
 */
function setTextHeard(textarea: HTMLTextAreaElement, text: string) {
  textarea.value = text === '' ? ' ' : ''
  Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set?.call(textarea, text)
  textarea.dispatchEvent(new Event('input', { bubbles: true }))
}

/**
 * Puts back the text typed before hydration in each textarea, as an input event would: React reset
 * those it rendered with text, and heard none of them (their onChange, a form's state, never ran).
 */
export function restoreEarlyText() {
  const early = window.__consoleEarlyText
  if (!early) return
  for (const textarea of Array.from(document.getElementsByTagName('textarea'))) {
    const text = early.get(textarea)
    if (text === undefined) continue
    early.delete(textarea)
    setTextHeard(textarea, text)
  }
}

const useIsomorphicLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect

/**
 * In the root: restores early text in a layout effect, after every form's conform has its listeners
 * (layout effects of children run first) and before the forms' own effects (`useEarlyChanges`) look
 * at what changed.
 */
export function useRestoreEarlyText() {
  useIsomorphicLayoutEffect(() => restoreEarlyText(), [])
}
