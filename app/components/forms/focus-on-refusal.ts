import { useEffect } from 'react'

/** The name conform gives the button of its intents (validate, update, insert, remove). */
const INTENT = '__intent__'

/** A field the user types or chooses in (not a button): focus there is the user's. */
function isTypedInto(element: Element | null): boolean {
  if (element instanceof HTMLInputElement)
    return !['button', 'submit', 'reset', 'image', 'hidden'].includes(element.type)
  return element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement
}

/** Drawn on the page: not a hidden input, not inside something not shown. */
function isShown(element: HTMLElement): boolean {
  return !(element instanceof HTMLInputElement && element.type === 'hidden') && element.getClientRects().length > 0
}

/**
 * With scripts, when the browser-side check refuses a submission of form `formId`, focus goes where
 * the server's refusal puts it (issue 36): the form's own errors (`errorId`) when they say something,
 * else the first field marked invalid, opening a closed `<details>` around it. Conform focuses a
 * field itself, but only one named exactly as its error and before React has drawn the errors, so a
 * field drawn again, an error on a group or on a hidden input left focus on the submit button or on
 * `<body>`. A submission the check lets through has no field marked invalid (conform clears them),
 * so this does nothing while it is sent; the reply's focus is the form's own business (FormCard).
 */
export function useFocusOnRefusal(formId: string, errorId?: string) {
  useEffect(() => {
    let frame = 0
    const onSubmit = (event: SubmitEvent) => {
      const form = event.target
      if (!(form instanceof HTMLFormElement) || form.id !== formId) return
      // conform's own intents (a field checked as it is left, a list row added) are submit events too,
      // sent by a button named `__intent__`: one that went to another field keeps its focus there (CI:
      // leaving a bad Table name for Description took focus back to Table name mid-typing); one that
      // pressed a button (the field left for Create) still has focus moved to the field refused
      const isIntent = event.submitter?.getAttribute('name') === INTENT
      cancelAnimationFrame(frame)
      // two frames: after React has drawn conform's answer to the check
      frame = requestAnimationFrame(() => {
        frame = requestAnimationFrame(() => {
          if (!form.isConnected) return
          const errors = errorId ? document.getElementById(errorId) : null
          const hasFormErrors = Boolean(errors?.textContent?.trim())
          const invalid = Array.from(form.querySelectorAll<HTMLElement>('[aria-invalid="true"]'))
          const active = document.activeElement
          if (isIntent && isTypedInto(active)) return
          if (!hasFormErrors && !invalid.length) return
          if (
            active &&
            (active === errors || (invalid.includes(active as HTMLElement) && isShown(active as HTMLElement)))
          )
            return
          if (hasFormErrors && errors) {
            if (!errors.hasAttribute('tabindex')) errors.setAttribute('tabindex', '-1')
            errors.focus()
            return
          }
          const target = invalid[0]!
          for (
            let details = target.closest('details');
            details;
            details = details.parentElement?.closest('details') ?? null
          )
            details.open = true
          const shown = invalid.find(isShown)
          shown?.focus()
        })
      })
    }
    document.addEventListener('submit', onSubmit)
    return () => {
      cancelAnimationFrame(frame)
      document.removeEventListener('submit', onSubmit)
    }
  }, [formId, errorId])
}
