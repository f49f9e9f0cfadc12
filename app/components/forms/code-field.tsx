import { getTextareaProps, type FieldMetadata } from '@conform-to/react'
import { useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react'
import { Textarea } from '~/components/ui/textarea'
import { describedBy, FieldShell, helpIdOf, useIsFirstError } from './field-shell'

type Editor = ComponentType<{
  id: string
  name: string
  initial: string
  language: 'sql' | 'json'
  label: string
  describedBy?: string
  isInvalid: boolean
  rows: number
  schema: boolean
}>

/**
 * A SQL or JSON field (decision 076). On the server and without scripts: a labelled monospaced
 * textarea wired to a conform field. In the browser, once hydrated, the Ace editor is imported (a
 * chunk of its own: pages without such a field never load it) and takes the textarea's place with
 * the text it holds; the editor posts under the same name. `schema`: SQL run against tables (the
 * schema's names are suggested). JSON marks its first error on the line.
 */
export function CodeField({
  meta,
  label,
  language,
  rows = 6,
  help,
  schema = false,
}: {
  meta: FieldMetadata<string | undefined, Record<string, unknown>, string[]>
  label: string
  language: 'sql' | 'json'
  rows?: number
  help?: ReactNode
  schema?: boolean
}) {
  const props = getTextareaProps(meta)
  const isFirstError = useIsFirstError(meta.name)
  const textareaRef = useRef<HTMLTextAreaElement>(null)
  // the editor once loaded, with the text the textarea held then and the conform key it was for
  const [loaded, setLoaded] = useState<{ Editor: Editor; text: string; key: string | undefined } | null>(null)
  useEffect(() => {
    let isCurrent = true
    import('./code-editor.client')
      .then((module) => {
        if (isCurrent)
          setLoaded({
            Editor: module.default,
            text: textareaRef.current?.value ?? String(meta.initialValue ?? ''),
            key: props.key,
          })
      })
      .catch(() => {
        // the textarea stays
      })
    return () => {
      isCurrent = false
    }
    // once per mount: a new conform key (a reset, a template) remounts the editor below
  }, []) // eslint-disable-line react-hooks/exhaustive-deps
  const described = describedBy(props['aria-describedby'], helpIdOf(meta, help))
  const isInvalid = Boolean(meta.errors?.length)
  return (
    <FieldShell meta={meta} label={label} help={help}>
      {loaded ? (
        <loaded.Editor
          key={props.key}
          id={meta.id}
          name={meta.name}
          initial={loaded.key === props.key ? loaded.text : String(meta.initialValue ?? '')}
          language={language}
          label={label}
          describedBy={described}
          isInvalid={isInvalid}
          rows={rows}
          schema={schema}
        />
      ) : (
        <Textarea
          {...props}
          ref={textareaRef}
          key={props.key}
          rows={rows}
          autoFocus={isFirstError}
          aria-describedby={described}
          borderColor={isInvalid ? 'border.error' : undefined}
          fontFamily="mono"
          fontSize="sm"
          spellCheck={false}
        />
      )}
    </FieldShell>
  )
}
