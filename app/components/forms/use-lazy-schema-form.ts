import { parse, useForm, type DefaultValue, type Submission, type SubmissionResult } from '@conform-to/react'
import type { getZodConstraint } from '@conform-to/zod/v4'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import type { z } from 'zod'
import { isChanged, isNamedField, useEarlyChanges } from './early-changes'

type Schema = z.ZodType<Record<string, unknown>, Record<string, unknown>>
type Validate = (formData: FormData) => Submission<Record<string, unknown>, string[], Record<string, unknown>>
type Parse = (formData: FormData, schema: Schema) => ReturnType<Validate>

/** Loads a form's schema: `() => import('~/schemas/auth').then((m) => m.LoginFormSchema)`, a module-level constant. */
export type SchemaLoader<S extends Schema> = () => Promise<S>

/** The HTML constraints of a schema, as `getZodConstraint` makes them on the server (in the loader). */
export type FormConstraint = ReturnType<typeof getZodConstraint>

type LazySchemaFormOptions<S extends Schema> = {
  /** Names the form and its fields' ids: unique on the page. */
  id: string
  /**
   * `getZodConstraint(schema)` from the route's loader: the same attributes on both sides at hydration.
   * Absent for a form whose schema follows what is submitted (`schemaOf`) and so has none.
   */
  constraint?: FormConstraint
  /** The action's reply: its field errors and everything the user typed come back with it. */
  lastResult?: SubmissionResult<string[]> | null
  defaultValue?: DefaultValue<z.input<S>>
  /** When a field is first checked in the browser (default: when it loses focus). */
  shouldValidate?: 'onBlur' | 'onSubmit' | 'onInput'
  /** When a field checked once is checked again (default: on each input). */
  shouldRevalidate?: 'onBlur' | 'onSubmit' | 'onInput'
  /** Called once the browser's check passed; `event.preventDefault()` takes the submission over (an upload by XHR). */
  onSubmit?: (event: FormEvent<HTMLFormElement>, context: { formData: FormData }) => void
}

type LoadedSchema = { value: unknown; parse: Parse }
const loaded = new Map<() => Promise<unknown>, LoadedSchema>()

const acceptAll: Validate = (formData) => parse(formData, { resolve: (payload) => ({ value: payload }) })

async function loadSchema(load: () => Promise<unknown>): Promise<LoadedSchema> {
  const [value, { parseWithZod }] = await Promise.all([load(), import('@conform-to/zod/v4')])
  const entry: LoadedSchema = { value, parse: (formData, schema) => parseWithZod(formData, { schema }) }
  loaded.set(load, entry)
  return entry
}

/**
 * `useSchemaForm` without zod in the route's first scripts (decision 032): the HTML constraints come
 * from the loader (`getZodConstraint` on the server), and the schema with conform's zod parser is
 * fetched after hydration. Until it is there, the form checks nothing in the browser and a submission
 * goes to the action, which parses with the same schema; from then on it validates as `useSchemaForm`
 * does (first on blur or as given, then on each input), with the same messages, starting with the
 * fields left or changed while it loaded. Returns useForm's `[form, fields]`.
 *
 * A form whose schema follows what is submitted (its type, its intent) loads what builds it (a
 * module-level `() => import('~/schemas/x').then((m) => m.schemaFor)`) and gives `schemaOf(loaded,
 * formData)`, called at each check with the props of the render.
 */
export function useLazySchemaForm<S extends Schema>(
  load: SchemaLoader<S>,
  options: LazySchemaFormOptions<S>,
): ReturnType<typeof useLazyForm<S>>
export function useLazySchemaForm<S extends Schema, L>(
  load: () => Promise<L>,
  options: LazySchemaFormOptions<S> & { schemaOf: (loaded: L, formData: FormData) => S },
): ReturnType<typeof useLazyForm<S>>
export function useLazySchemaForm<S extends Schema>(
  load: () => Promise<unknown>,
  options: LazySchemaFormOptions<S> & { schemaOf?: (loaded: unknown, formData: FormData) => S },
) {
  return useLazyForm<S>(load, options)
}

function useLazyForm<S extends Schema>(
  load: () => Promise<unknown>,
  options: LazySchemaFormOptions<S> & { schemaOf?: (loaded: unknown, formData: FormData) => S },
) {
  const [entry, setEntry] = useState<LoadedSchema | undefined>(() => loaded.get(load))
  // Read at each check: the schema may follow the props of the latest render.
  const schemaOf = useRef(options.schemaOf)
  schemaOf.current = options.schemaOf
  const validate: Validate | undefined = entry
    ? (formData) =>
        entry.parse(formData, schemaOf.current ? schemaOf.current(entry.value, formData) : (entry.value as Schema))
    : undefined
  const shouldValidate = options.shouldValidate ?? 'onBlur'
  // Fields left before the schema came: checked as soon as it is there, as they would have been.
  const leftEarly = useRef(new Set<string>())

  useEffect(() => {
    if (entry) return
    let isCurrent = true
    loadSchema(load).then(
      (loadedEntry) => {
        if (isCurrent) setEntry(loadedEntry)
      },
      // Not fatal: the action validates every submission with the same schema and messages.
      (error: unknown) => console.warn('Form validation could not be loaded; the server will check the form', error),
    )
    const onFocusOut = (event: FocusEvent) => {
      const field = event.target
      if (isNamedField(field) && field.form?.id === options.id) leftEarly.current.add(field.name)
    }
    document.addEventListener('focusout', onFocusOut, true)
    return () => {
      isCurrent = false
      document.removeEventListener('focusout', onFocusOut, true)
    }
  }, [load, entry, options.id])

  const [form, fields] = useForm<z.input<S> & Record<string, unknown>, z.output<S>, string[]>({
    id: options.id,
    lastResult: options.lastResult,
    defaultValue: options.defaultValue,
    constraint: options.constraint,
    shouldValidate: validate ? shouldValidate : 'onSubmit',
    shouldRevalidate: validate ? (options.shouldRevalidate ?? 'onInput') : 'onSubmit',
    // Until the schema is there, everything passes in the browser: a submission goes to the action,
    // and the form's own intents (form.update, a list's insert) are applied here. Without an
    // onValidate conform would send those intents to the action as a submission.
    onValidate: ({ formData }) =>
      (validate ?? acceptAll)(formData) as Submission<z.input<S> & Record<string, unknown>, string[], z.output<S>>,
    ...(options.onSubmit ? { onSubmit: options.onSubmit } : {}),
  })

  // Once the schema is there, what was left (on blur) or changed (on input) before it came is checked.
  useEffect(() => {
    if (!entry || shouldValidate === 'onSubmit') return
    const element = document.forms.namedItem(options.id)
    const names = new Set(shouldValidate === 'onBlur' ? leftEarly.current : [])
    for (const field of element ? Array.from(element.elements) : []) {
      if (!isNamedField(field) || !isChanged(field)) continue
      if (shouldValidate === 'onInput' || field !== document.activeElement) names.add(field.name)
    }
    leftEarly.current.clear()
    for (const name of names) form.validate({ name })
    // only the schema's arrival starts this
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the form, id and mode are read as they are then
  }, [entry])
  useEarlyChanges(options.id)

  return [form, fields] as const
}
