import { useForm, type DefaultValue, type Submission, type SubmissionResult } from '@conform-to/react'
import type { getZodConstraint } from '@conform-to/zod/v4'
import { useEffect, useState } from 'react'
import type { z } from 'zod'

type Schema = z.ZodType<Record<string, unknown>, Record<string, unknown>>
type Validate = (formData: FormData) => Submission<Record<string, unknown>, string[], Record<string, unknown>>

/** Loads a form's schema: `() => import('~/schemas/auth').then((m) => m.LoginFormSchema)`, a module-level constant. */
export type SchemaLoader<S extends Schema> = () => Promise<S>

/** The HTML constraints of a schema, as `getZodConstraint` makes them on the server (in the loader). */
export type FormConstraint = ReturnType<typeof getZodConstraint>

type LazySchemaFormOptions<S extends Schema> = {
  /** Names the form and its fields' ids: unique on the page. */
  id: string
  /** `getZodConstraint(schema)` from the route's loader: the same attributes on both sides at hydration. */
  constraint: FormConstraint
  /** The action's reply: its field errors and everything the user typed come back with it. */
  lastResult?: SubmissionResult<string[]> | null
  defaultValue?: DefaultValue<z.input<S>>
  /** When a field is first checked in the browser (default: when it loses focus). */
  shouldValidate?: 'onBlur' | 'onSubmit' | 'onInput'
}

const loaded = new Map<SchemaLoader<Schema>, Validate>()

async function loadValidator<S extends Schema>(load: SchemaLoader<S>): Promise<Validate> {
  const [schema, { parseWithZod }] = await Promise.all([load(), import('@conform-to/zod/v4')])
  const validate: Validate = (formData) => parseWithZod(formData, { schema })
  loaded.set(load, validate)
  return validate
}

/**
 * `useSchemaForm` without zod in the route's first scripts (decision 032): the HTML constraints come
 * from the loader (`getZodConstraint` on the server), and the schema with conform's zod parser is
 * fetched after hydration. Until it is there, the form checks nothing in the browser and a submission
 * goes to the action, which parses with the same schema; from then on it validates as `useSchemaForm`
 * does (first on blur or as given, then on each input), with the same messages. Returns `[form, fields]`.
 */
export function useLazySchemaForm<S extends Schema>(load: SchemaLoader<S>, options: LazySchemaFormOptions<S>) {
  const [validate, setValidate] = useState<Validate | undefined>(() => loaded.get(load))
  useEffect(() => {
    if (validate) return
    let isCurrent = true
    loadValidator(load).then(
      (loadedValidate) => {
        if (isCurrent) setValidate(() => loadedValidate)
      },
      // Not fatal: the action validates every submission with the same schema and messages.
      (error: unknown) => console.warn('Form validation could not be loaded; the server will check the form', error),
    )
    return () => {
      isCurrent = false
    }
  }, [load, validate])

  return useForm<z.input<S> & Record<string, unknown>, z.output<S>, string[]>({
    id: options.id,
    lastResult: options.lastResult,
    defaultValue: options.defaultValue,
    constraint: options.constraint,
    shouldValidate: validate ? (options.shouldValidate ?? 'onBlur') : 'onSubmit',
    shouldRevalidate: validate ? 'onInput' : 'onSubmit',
    onValidate: validate ? ({ formData }) => validate(formData) as Submission<z.input<S> & Record<string, unknown>, string[], z.output<S>> : undefined,
  })
}
