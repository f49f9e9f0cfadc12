import ace from 'ace-builds'
import AceEditor from 'react-ace'
import 'ace-builds/src-noconflict/mode-sql'
import 'ace-builds/src-noconflict/mode-json'
import 'ace-builds/src-noconflict/theme-textmate'
import 'ace-builds/src-noconflict/ext-language_tools'
import type { Ace } from 'ace-builds'
import { useEffect, useMemo, useRef, useState } from 'react'
import { MONO_FONTS } from '~/theme'
import { withBase } from '~/utils/base-path'
import { jsonProblemOf } from '~/utils/json-error'
import {
  completionsOf,
  withProjectPart,
  withTableColumns,
  type SchemaCompletion,
  type SchemaTreeData,
} from '~/utils/schema-tree'

/** The editor's line height in px (14 px text), as the Query page's. */
const LINE_HEIGHT = 21

async function getJson<T>(path: string): Promise<T | null> {
  const response = await fetch(withBase(path))
  return response.ok ? ((await response.json()) as T) : null
}

/**
 * Suggestions from the cluster's schema, read as they are needed (`/resources/query-schema`): the
 * projects; after `project.` that project's tables; the columns of each `project.table` the text
 * names (its first four); the opened projects' functions and dictionaries. Keywords come from Ace.
 */
function schemaCompleter(): Ace.Completer {
  let tree: SchemaTreeData | null = null
  const projectOf = (name: string) => tree?.projects.find((project) => project.name === name)
  const openProject = async (name: string) => {
    const project = projectOf(name)
    if (!tree || !project || project.tables) return
    const part = await getJson<Parameters<typeof withProjectPart>[2]>(
      `/resources/query-schema?project=${encodeURIComponent(project.uuid)}`,
    )
    if (part) tree = withProjectPart(tree, project.uuid, part)
  }
  const openTable = async (projectName: string, tableName: string) => {
    await openProject(projectName)
    const project = projectOf(projectName)
    const table = project?.tables?.find((entry) => entry.name === tableName)
    if (!tree || !project || !table || table.columns) return
    const part = await getJson<{ columns: { name: string; type: string }[] }>(
      `/resources/query-schema?project=${encodeURIComponent(project.uuid)}&table=${encodeURIComponent(table.uuid)}`,
    )
    if (part) tree = withTableColumns(tree, project.uuid, table.uuid, part.columns)
  }
  return {
    identifierRegexps: [/[A-Za-z0-9_$]/],
    getCompletions(_editor, session, position, _prefix, callback) {
      const before = session.getLine(position.row).slice(0, position.column)
      const qualifier = /([A-Za-z0-9_$]+)\.[A-Za-z0-9_$]*$/.exec(before)?.[1]
      const load = async () => {
        tree ??= await getJson<SchemaTreeData>('/resources/query-schema')
        if (!tree) return []
        if (qualifier) await openProject(qualifier)
        const named = [...session.getValue().matchAll(/\b([A-Za-z_][\w]*)\.([A-Za-z_][\w]*)\b/g)]
          .filter((match) => projectOf(match[1]!))
          .slice(0, 4)
        for (const match of named) await openTable(match[1]!, match[2]!)
        const items: SchemaCompletion[] = completionsOf(tree, [])
        return qualifier ? items.filter((item) => item.scope === qualifier) : items.filter((item) => !item.scope)
      }
      load()
        .then((items) =>
          callback(
            null,
            items.map((item) => ({
              caption: item.caption ?? item.value,
              value: item.value,
              meta: item.meta,
              score: item.score,
            })),
          ),
        )
        .catch(() => callback(null, []))
    },
  }
}

/**
 * The Ace editor a CodeField becomes in the browser (loaded only by a page with such a field, after
 * it hydrated). Its text goes to the form through a hidden input of the field's name, so the form
 * posts what it posted as a textarea. JSON: the first error is marked on its line (and said below).
 */
export default function CodeEditor({
  id,
  name,
  initial,
  language,
  label,
  describedBy,
  isInvalid,
  rows,
  schema,
}: {
  id: string
  name: string
  initial: string
  language: 'sql' | 'json'
  label: string
  describedBy?: string
  isInvalid: boolean
  rows: number
  /** SQL run against tables: the schema's names are suggested. */
  schema: boolean
}) {
  const [value, setValue] = useState(initial)
  const editorRef = useRef<Ace.Editor | null>(null)
  const problem = language === 'json' ? jsonProblemOf(value) : null
  useEffect(() => {
    editorRef.current?.session.setAnnotations(
      problem ? [{ row: problem.row, column: problem.column, text: problem.message, type: 'error' }] : [],
    )
  }, [problem?.row, problem?.column, problem?.message]) // eslint-disable-line react-hooks/exhaustive-deps
  const options = useMemo(
    () => ({ useWorker: false, tabSize: 2, wrap: true, textInputAriaLabel: label, fontFamily: MONO_FONTS }),
    [label],
  )
  const problemId = `${id}-json-problem`
  const described = [describedBy, language === 'json' ? problemId : undefined].filter(Boolean).join(' ')
  // the field's errors come and go (a refused save): the editor's input says so
  useEffect(() => {
    const input = editorRef.current?.textInput.getElement()
    if (!input) return
    if (described) input.setAttribute('aria-describedby', described)
    else input.removeAttribute('aria-describedby')
    if (isInvalid) input.setAttribute('aria-invalid', 'true')
    else input.removeAttribute('aria-invalid')
  }, [described, isInvalid])
  const height = Math.max(rows, 3) * LINE_HEIGHT + 8
  return (
    <div>
      <input type="hidden" name={name} value={value} />
      <div
        className="cc-code-editor"
        data-language={language}
        style={{
          border: '1px solid',
          borderColor: isInvalid ? 'var(--chakra-colors-border-error)' : 'var(--chakra-colors-border)',
          borderRadius: 'var(--chakra-radii-md)',
          overflow: 'hidden',
          background: 'var(--chakra-colors-bg)',
        }}
      >
        <AceEditor
          mode={language}
          theme="textmate"
          name={`${id}-ace`}
          value={value}
          onChange={setValue}
          width="100%"
          height={`${height}px`}
          fontSize={14}
          lineHeight={LINE_HEIGHT}
          showPrintMargin={false}
          enableBasicAutocompletion={language === 'sql'}
          enableLiveAutocompletion={false}
          setOptions={options}
          editorProps={{ $blockScrolling: true }}
          onLoad={(editor) => {
            editorRef.current = editor
            if (language === 'sql') {
              const tools = ace.require('ace/ext/language_tools') as { keyWordCompleter: Ace.Completer }
              editor.completers = schema ? [schemaCompleter(), tools.keyWordCompleter] : [tools.keyWordCompleter]
            }
            const input = editor.textInput.getElement()
            // the field's label (`for`) now names the editor's input
            input.id = id
            ;(editor.textInput as unknown as { setAriaLabel?: () => void }).setAriaLabel?.()
            if (described) input.setAttribute('aria-describedby', described)
            if (isInvalid) input.setAttribute('aria-invalid', 'true')
            const first = jsonProblemOf(initial)
            if (language === 'json' && first)
              editor.session.setAnnotations([
                { row: first.row, column: first.column, text: first.message, type: 'error' },
              ])
          }}
        />
      </div>
      {language === 'json' ? (
        <div id={problemId} className="cc-field-help" aria-live="polite" data-testid="json-problem">
          {problem ? `Line ${problem.row + 1}: ${problem.message}` : ''}
        </div>
      ) : null}
    </div>
  )
}
