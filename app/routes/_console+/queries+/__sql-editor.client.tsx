import ace from 'ace-builds'
import AceEditor from 'react-ace'
import 'ace-builds/src-noconflict/mode-sql'
import 'ace-builds/src-noconflict/theme-textmate'
import 'ace-builds/src-noconflict/ext-language_tools'
import type { Ace } from 'ace-builds'
import { memo, useEffect, useMemo, useRef } from 'react'
import { MONO_FONTS } from '~/theme'
import type { SchemaCompletion } from '~/utils/schema-tree'

/** Words the dialect adds to Ace's generic SQL keywords. */
const EXTRA_KEYWORDS = [
  'PREWHERE',
  'FINAL',
  'SAMPLE',
  'ARRAY JOIN',
  'GLOBAL',
  'ANY',
  'ASOF',
  'SETTINGS',
  'FORMAT',
  'WITH TOTALS',
  'LIMIT BY',
  'INTERVAL',
  'ILIKE',
]

/**
 * Suggestions from the cluster's schema: after `project.` that project's tables; otherwise projects,
 * `project.table`, columns (with their table and type), functions (the org's first), dictionaries
 * and keywords. Ace filters them by the typed prefix.
 */
function schemaCompleter(read: () => SchemaCompletion[]): Ace.Completer {
  return {
    identifierRegexps: [/[A-Za-z0-9_$]/],
    getCompletions(_editor, session, position, _prefix, callback) {
      const before = session.getLine(position.row).slice(0, position.column)
      const qualifier = /([A-Za-z0-9_$]+)\.[A-Za-z0-9_$]*$/.exec(before)?.[1]
      const items = read()
      const chosen = qualifier ? items.filter((item) => item.scope === qualifier) : items.filter((item) => !item.scope)
      callback(
        null,
        chosen
          .map((item) => ({
            caption: item.caption ?? item.value,
            value: item.value,
            meta: item.meta,
            score: item.score,
          }))
          .concat(
            qualifier ? [] : EXTRA_KEYWORDS.map((word) => ({ caption: word, value: word, meta: 'keyword', score: 10 })),
          ),
      )
    },
  }
}

/** The editor's line height in px (14 px text): room below the baseline for an underscore. */
const SQL_LINE_HEIGHT = 21

/**
 * The Ace SQL editor (browser only: loaded lazily behind ClientOnly, over a textarea of the same
 * name). Its text goes to the form through a hidden input; Ctrl/Cmd+Enter calls `onRun`; suggestions
 * come from `completions` as you type.
 */
export default memo(function SqlEditor({
  name,
  value,
  onChange,
  onRun,
  onEditor,
  completions,
  label,
  describedBy,
  height = 220,
}: {
  name: string
  value: string
  onChange: (value: string) => void
  onRun: () => void
  /** Receives the editor once loaded (the schema tree inserts at its cursor). */
  onEditor?: (editor: Ace.Editor | null) => void
  completions?: SchemaCompletion[]
  label: string
  describedBy?: string
  /** Pixels; smaller above a result, so its first rows are on screen. */
  height?: number
}) {
  const completionsRef = useRef<SchemaCompletion[]>(completions ?? [])
  useEffect(() => {
    completionsRef.current = completions ?? []
  }, [completions])
  useEffect(() => () => onEditor?.(null), [onEditor])
  const runRef = useRef(onRun)
  runRef.current = onRun
  // One array for the editor's life: react-ace binds its commands again whenever the prop changes
  // (Ace parses every key binding anew, tens of ms).
  const commands = useMemo(
    () => [{ name: 'run', bindKey: { win: 'Ctrl-Enter', mac: 'Command-Enter' }, exec: () => runRef.current() }],
    [],
  )
  // `useResizeObserver`: Ace follows its box's size by itself, 50 ms after it changes, so a height
  // change (compact above a result) costs the frame that paints the result nothing. Given the
  // height as a prop instead, react-ace resizes Ace synchronously in the commit: a forced layout and
  // a full editor render before the first result rows can paint (issue 11).
  const options = useMemo(
    () => ({
      useWorker: false,
      tabSize: 2,
      wrap: true,
      textInputAriaLabel: label,
      fontFamily: MONO_FONTS,
      useResizeObserver: true,
    }),
    [label],
  )
  return (
    <div style={{ width: '100%', height: `${height}px` }}>
      <input type="hidden" name={name} value={value} />
      <AceEditor
        mode="sql"
        theme="textmate"
        name={`${name}-ace`}
        value={value}
        onChange={onChange}
        width="100%"
        height="100%"
        fontSize={14}
        // Ace paints each line in a box of its line height with `contain: strict`, which clips what is
        // drawn below it: at the font's own ("normal") height an underscore fell outside and
        // `web_logs` read as `web logs` (issue 36). 1.5 lines leave the glyph room in every theme.
        lineHeight={SQL_LINE_HEIGHT}
        showPrintMargin={false}
        enableBasicAutocompletion
        enableLiveAutocompletion={false}
        // Ace keeps the textarea's aria-label current ("SQL, Cursor at row 1") from this option.
        setOptions={options}
        editorProps={{ $blockScrolling: true }}
        commands={commands}
        onLoad={(editor) => {
          const tools = ace.require('ace/ext/language_tools') as { keyWordCompleter: Ace.Completer }
          editor.completers = [schemaCompleter(() => completionsRef.current), tools.keyWordCompleter]
          const textarea = editor.textInput.getElement()
          editor.setOption('textInputAriaLabel', label)
          // Ace names the textarea only when the cursor moves: name it now, for an empty editor too.
          ;(editor.textInput as unknown as { setAriaLabel?: () => void }).setAriaLabel?.()
          if (describedBy) textarea.setAttribute('aria-describedby', describedBy)
          editor.focus()
          editor.navigateFileEnd()
          onEditor?.(editor)
        }}
      />
    </div>
  )
})
