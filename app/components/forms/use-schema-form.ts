import type React from 'react'
import { useForm, type DefaultValue, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import type { z } from 'zod'
import { useEarlyChanges } from './early-changes'

type SchemaFormOptions<Schema extends z.ZodType> = {
  /** Names the form and its fields' ids: unique on the page. */
  id: string
  /** The action's reply: its field errors and everything the user typed come back with it. */
  lastResult?: SubmissionResult<string[]> | null
  defaultValue?: DefaultValue<z.input<Schema>>
  /** When a field is first checked in the browser (default: when it loses focus). */
  shouldValidate?: 'onBlur' | 'onSubmit' | 'onInput'
  /** Called once the browser's check passed; `event.preventDefault()` takes the submission over (an upload by XHR). */
  onSubmit?: (event: React.FormEvent<HTMLFormElement>, context: { formData: FormData }) => void
}

/**
 * A conform form checked in the browser by the same zod schema its action parses with, so both
 * sides say the same words: the HTML constraints from the schema, first check on blur (or as
 * given), then again on each input; what was changed before hydration is heard once it is
 * there (`useEarlyChanges`). Returns useForm's `[form, fields]`.
 */
export function useSchemaForm<Schema extends z.ZodType<Record<string, unknown>, Record<string, unknown>>>(
  schema: Schema,
  options: SchemaFormOptions<Schema>,
) {
  const result = useForm<z.input<Schema> & Record<string, unknown>, z.output<Schema>, string[]>({
    id: options.id,
    lastResult: options.lastResult,
    defaultValue: options.defaultValue,
    constraint: getZodConstraint(schema),
    shouldValidate: options.shouldValidate ?? 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    ...(options.onSubmit ? { onSubmit: options.onSubmit } : {}),
  })
  useEarlyChanges(options.id)
  return result
}
