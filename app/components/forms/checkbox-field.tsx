import { getInputProps, type FieldMetadata } from '@conform-to/react'
import type { ReactNode } from 'react'
import { ErrorList } from './error-list'

/**
 * A native checkbox wired to a conform field; it submits "on" when checked, which zod reads with
 * `z.coerce.boolean()` or `z.literal('on').optional()` (an unchecked box sends nothing).
 */
export function CheckboxField({
  meta,
  label,
  help,
}: {
  meta: FieldMetadata<boolean | string | undefined, Record<string, unknown>, string[]>
  label: ReactNode
  help?: ReactNode
}) {
  const props = getInputProps(meta, { type: 'checkbox' })
  return (
    <div className="cc-field">
      <label htmlFor={meta.id} className="cc-check-label">
        <input {...props} key={props.key} />
        {label}
      </label>
      {help ? <div className="cc-field-help">{help}</div> : null}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}
