import { useEffect } from 'react'

export type NamedField = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement

export function isNamedField(target: unknown): target is NamedField {
  return (
    (target instanceof HTMLInputElement ||
      target instanceof HTMLSelectElement ||
      target instanceof HTMLTextAreaElement) &&
    target.name !== ''
  )
}

/** Whether the user changed a field from what the page came with. */
export function isChanged(field: NamedField): boolean {
  if (field instanceof HTMLSelectElement)
    return field.multiple
      ? Array.from(field.options).some((option) => option.selected !== option.defaultSelected)
      : field.selectedIndex !== defaultIndex(field)
  if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio'))
    return field.checked !== field.defaultChecked
  if (
    field instanceof HTMLInputElement &&
    (field.type === 'hidden' || field.type === 'submit' || field.type === 'button')
  )
    return false
  return field.value !== field.defaultValue
}

/**
 * The option a single select shows as the page comes: the last one marked `selected`, else the first
 * that is not disabled (the browser's choice; a placeholder such as "Select a kind" is seldom marked).
 */
function defaultIndex(select: HTMLSelectElement): number {
  const options = Array.from(select.options)
  for (let i = options.length - 1; i >= 0; i--) if (options[i]!.defaultSelected) return i
  if (select.size > 1) return -1 // a list box shows nothing selected
  return options.findIndex((option) => !option.disabled)
}

/**
 * What the user changed in a form before its page hydrated is heard once it has. The browser keeps
 * such a change in the field, but neither conform (its value state: what the form derives from a
 * select, such as the transforms of the table picked) nor the form's own change handlers saw it.
 *
 * On mount, each changed field of the form, in page order, gets an `input` event (conform reads the
 * form's values again) and, for a select or a file input, a `change` event (React's onChange for those
 * listens to it). Checkboxes and radios get no `change`: React's onChange for them follows clicks, and
 * a replayed click would undo the user's. Change handlers therefore run as if the user had just made
 * these changes in this order, so they must read sibling fields from the form, not from state.
 *
 * A page rendered by client navigation has nothing changed yet, so this does nothing there.
 */
export function useEarlyChanges(formId: string) {
  useEffect(() => {
    const form = document.forms.namedItem(formId)
    if (!form) return
    const changed = Array.from(form.elements).filter(
      (field): field is NamedField => isNamedField(field) && isChanged(field),
    )
    for (const field of changed) {
      field.dispatchEvent(new Event('input', { bubbles: true }))
      if (field instanceof HTMLSelectElement || field.type === 'file')
        field.dispatchEvent(new Event('change', { bubbles: true }))
    }
    // only the first mount: later changes are heard as they happen
  }, [formId])
}

/** The current value of the field `name` in the same form as `element` ('' when there is none). */
export function siblingValue(element: HTMLElement & { form: HTMLFormElement | null }, name: string): string {
  const field = element.form?.elements.namedItem(name)
  return isNamedField(field) ? field.value : ''
}
