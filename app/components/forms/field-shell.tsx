import { createContext, useContext, type ReactNode } from 'react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { ErrorList } from './error-list'

/**
 * The name of the form's first field with an error ('' for the form's own errors), given by FormCard.
 * That field renders `autoFocus`: after a submission the page loads with focus on the first error,
 * without scripts too (the browser honours the attribute on load).
 */
export const FirstErrorContext = createContext<string | undefined>(undefined)

/**
 * True when the field `name` is the form's first with an error, on the page as the server renders it
 * (it takes focus on load). Once scripts run it is false: a field that mounts again later (conform
 * re-keys a field it updates, such as one typed into before hydration) would otherwise take focus
 * from the field being typed in (CI: tables.spec's JSON went into the Table name). With scripts,
 * focus after a reply is FormCard's and conform's to give.
 */
export function useIsFirstError(name: string | undefined): boolean {
  const first = useContext(FirstErrorContext)
  const isHydrated = useHydrated()
  return !isHydrated && Boolean(name) && first === name
}

type ShellMeta = { id: string; errorId: string; errors?: string[] }

/** The id of a field's help text, or undefined when it has none. */
export function helpIdOf(meta: { id: string }, help: ReactNode): string | undefined {
  return help ? `${meta.id}-help` : undefined
}

/** A control's aria-describedby: conform's (its errors) and the help text's, or undefined for neither. */
export function describedBy(conformIds: string | undefined, helpId: string | undefined): string | undefined {
  return [conformIds, helpId].filter(Boolean).join(' ') || undefined
}

/** A labelled field's frame around its control (`children`): the label above, help text and errors below (form-css.ts classes). */
export function FieldShell({
  meta,
  label,
  help,
  children,
}: {
  meta: ShellMeta
  label: ReactNode
  help?: ReactNode
  children: ReactNode
}) {
  return (
    <div className="cc-field">
      <label htmlFor={meta.id} className="cc-field-label">
        {label}
      </label>
      {children}
      {help ? (
        <div id={helpIdOf(meta, help)} className="cc-field-help">
          {help}
        </div>
      ) : null}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}
