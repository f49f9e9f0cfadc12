import { useNavigate } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { JUMP_SHORTCUTS, NEW_ALTER_JOB_PATH } from './nav-config'

/** How long after Alt+N (or g) the next key still counts. */
const CHORD_MS = 1500

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT') return true
  // Checkboxes, radios and buttons take no text: the chord still applies there.
  return target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type)
}

/**
 * Sends the form holding `target` as its first submit button would (Remix's own submit handler
 * runs); true when there was one. A `<dialog>`'s own form is left alone.
 */
export function submitFormOf(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false
  const form = (target as HTMLInputElement).form ?? target.closest('form')
  if (!form || form.method === 'dialog') return false
  const submitter = [...form.elements].find(
    (element): element is HTMLButtonElement | HTMLInputElement =>
      (element instanceof HTMLButtonElement || element instanceof HTMLInputElement) &&
      element.type === 'submit' &&
      !element.disabled,
  )
  form.requestSubmit(submitter)
  return true
}

/**
 * The console's keyboard: Alt+N then A (Alt may still be held) goes to the new alter job page (spec
 * section 1; `event.code` because Alt changes `event.key` on some layouts); `g` then a letter jumps
 * to a section; `?` opens the shortcuts sheet (`onHelp`); Ctrl/Cmd+Enter sends the focused form
 * (the query editor handles it first and runs the query). Letters never fire while typing in a field.
 */
export function useShortcuts({ onHelp }: { onHelp?: () => void } = {}) {
  // The listener is added once: React Router gives a new `navigate` on every navigation, and
  // re-adding the listener then would drop a `g` pressed while the page changed (the chord's state).
  const latestNavigate = useNavigate()
  const navigateRef = useRef(latestNavigate)
  navigateRef.current = latestNavigate
  const onHelpRef = useRef(onHelp)
  onHelpRef.current = onHelp
  useEffect(() => {
    const navigate = (to: string) => navigateRef.current(to)
    let altNUntil = 0
    let gUntil = 0
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.altKey) {
        if (submitFormOf(event.target)) event.preventDefault()
        return
      }
      if (event.altKey && event.code === 'KeyN') {
        altNUntil = Date.now() + CHORD_MS
        event.preventDefault()
        return
      }
      if (event.code === 'KeyA' && Date.now() < altNUntil && (event.altKey || !isTyping(event.target))) {
        altNUntil = 0
        event.preventDefault()
        navigate(NEW_ALTER_JOB_PATH)
        return
      }
      if (event.code !== 'AltLeft' && event.code !== 'AltRight') altNUntil = 0
      if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return
      if (Date.now() < gUntil) {
        gUntil = 0
        const jump = JUMP_SHORTCUTS.find((shortcut) => shortcut.key === event.key.toLowerCase())
        if (jump) {
          event.preventDefault()
          navigate(jump.to)
        }
        return
      }
      if (event.key === 'g') {
        gUntil = Date.now() + CHORD_MS
        return
      }
      if (event.key === '?' && onHelpRef.current) {
        event.preventDefault()
        onHelpRef.current()
      }
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [])
}
