import { useNavigate } from '@remix-run/react'
import { useEffect } from 'react'
import { NEW_ALTER_JOB_PATH } from './nav-config'

/** How long after Alt+N the A key still counts. */
const CHORD_MS = 1500

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT') return true
  // Checkboxes, radios and buttons take no text: the chord still applies there.
  return target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type)
}

/**
 * Alt+N then A (Alt may still be held) goes to the new alter job page (spec section 1). Uses
 * `event.code` because Alt changes `event.key` on some layouts (macOS: Alt+N is "˜").
 */
export function useShortcuts() {
  const navigate = useNavigate()
  useEffect(() => {
    let armedUntil = 0
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.altKey && event.code === 'KeyN') {
        armedUntil = Date.now() + CHORD_MS
        event.preventDefault()
        return
      }
      if (event.code === 'KeyA' && Date.now() < armedUntil && (event.altKey || !isTyping(event.target))) {
        armedUntil = 0
        event.preventDefault()
        navigate(NEW_ALTER_JOB_PATH)
        return
      }
      if (event.code !== 'AltLeft' && event.code !== 'AltRight') armedUntil = 0
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [navigate])
}
