import AceEditor from 'react-ace'
import 'ace-builds/src-noconflict/mode-sql'
import 'ace-builds/src-noconflict/theme-textmate'
import { MONO_FONTS } from '~/theme'

/**
 * The Ace SQL editor (browser only: loaded lazily behind ClientOnly, over a textarea of the same
 * name). Its text goes to the form through a hidden input; Ctrl/Cmd+Enter calls `onRun`.
 */
export default function SqlEditor({
  name,
  value,
  onChange,
  onRun,
  label,
  describedBy,
  height = 220,
}: {
  name: string
  value: string
  onChange: (value: string) => void
  onRun: () => void
  label: string
  describedBy?: string
  /** Pixels; smaller above a result, so its first rows are on screen. */
  height?: number
}) {
  return (
    <div style={{ width: '100%' }}>
      <input type="hidden" name={name} value={value} />
      <AceEditor
        mode="sql"
        theme="textmate"
        name={`${name}-ace`}
        value={value}
        onChange={onChange}
        width="100%"
        height={`${height}px`}
        fontSize={14}
        showPrintMargin={false}
        // Ace keeps the textarea's aria-label current ("SQL, Cursor at row 1") from this option.
        setOptions={{ useWorker: false, tabSize: 2, wrap: true, textInputAriaLabel: label, fontFamily: MONO_FONTS }}
        editorProps={{ $blockScrolling: true }}
        commands={[{ name: 'run', bindKey: { win: 'Ctrl-Enter', mac: 'Command-Enter' }, exec: () => onRun() }]}
        onLoad={(editor) => {
          const textarea = editor.textInput.getElement()
          editor.setOption('textInputAriaLabel', label)
          // Ace names the textarea only when the cursor moves: name it now, for an empty editor too.
          ;(editor.textInput as unknown as { setAriaLabel?: () => void }).setAriaLabel?.()
          if (describedBy) textarea.setAttribute('aria-describedby', describedBy)
          editor.focus()
          editor.navigateFileEnd()
        }}
      />
    </div>
  )
}
