import { chakra, Grid } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { HStack, Stack } from '~/components/ui/stack'
import { Button } from '~/components/ui/button'
import type { Ace } from 'ace-builds'
import { Form, Link, useNavigation, useSubmit } from '@remix-run/react'
import {
  lazy,
  memo,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
} from 'react'
import { ClientOnly } from 'remix-utils/client-only'
import { InlineAlert } from '~/components/layout/inline-alert'
import { DateTime } from '~/components/layout/date-time'
import { useHydrated } from 'remix-utils/use-hydrated'
import type { HistoryEntry } from '~/api/saved-queries.server'
import { SAVED_QUERY_NAME_MAX } from '~/schemas/saved-query'
import { editorLink, OUTPUT_FORMATS, QUERY_OPTION_GROUPS, withoutParams, type QueryOption } from '~/utils/query-options'
import { paramNameOf, paramValuesOf } from '~/utils/sql-params'
import { TableSearchField, type PickerSearch } from '~/components/forms/table-search-field'
import { SchemaTree } from './__schema-tree'
import {
  completionsOf,
  withProjectPart,
  withTableColumns,
  type SchemaCompletion,
  type SchemaTreeData,
} from '~/utils/schema-tree'
import { withBase } from '~/utils/base-path'
import { formatNumber } from '~/utils/format-number'
import type { QueryProgress } from '~/routes/resources+/query-progress'

const SqlEditor = lazy(() => import('./__sql-editor.client'))
// The parameters' inputs come with the engine's lexer that finds them: a chunk of their own, rendered
// on the server like the rest (decision 100).
const QueryParamsFields = lazy(() =>
  import('~/components/query-params/query-params-fields').then((module) => ({ default: module.QueryParamsFields })),
)

const fieldCss = {
  '& select, & input:not([type=hidden])': {
    width: '100%',
    height: '9',
    px: '2',
    borderWidth: '1px',
    borderColor: 'border',
    rounded: 'l2',
    bg: 'bg',
    fontSize: 'sm',
  },
  '& [aria-invalid=true]': { borderColor: 'border.error' },
  '& label': { display: 'block', fontSize: 'sm', fontWeight: 'medium', mb: '1' },
  '& [data-help]': { fontSize: 'xs', color: 'fg.muted', mt: '1' },
  '& [data-error]': { fontSize: 'sm', color: 'fg.error', mt: '1' },
  '& fieldset': { borderWidth: '1px', borderColor: 'border', rounded: 'md', p: '3', mb: '3' },
  '& legend': { fontWeight: 'semibold', fontSize: 'sm', px: '1' },
  '& [data-grid]': { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(15rem, 1fr))', gap: '3' },
} as const

/**
 * A GET form to /queries?table_id=…: the editor then opens with `SELECT * FROM project.table LIMIT 100`.
 * The tables offered are what the search finds (issue 33), not every table of the org.
 */
export function TablePicker({ picker }: { picker: PickerSearch }) {
  const submit = useSubmit()
  return (
    <Form method="get" action="/queries">
      <HStack gap="2" align="end" wrap="wrap" css={fieldCss}>
        <TableSearchField
          search={picker}
          idName="table_id"
          qName="table_q"
          onChoose={(select) => {
            if (select.value) submit(select.form)
          }}
        />
        <Button type="submit" variant="outline" size="sm" h="9">
          Query this table
        </Button>
      </HStack>
    </Form>
  )
}

function OptionField({ option, value, error }: { option: QueryOption; value?: string; error?: string }) {
  const id = `opt-${option.name}`
  const describedBy = [`${id}-help`, error ? `${id}-error` : ''].filter(Boolean).join(' ')
  const common = {
    id,
    name: option.name,
    defaultValue: value ?? '',
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
  }
  return (
    <div>
      <label htmlFor={id}>{option.label}</label>
      {option.kind === 'bool' ? (
        <select {...common}>
          <option value="">Default</option>
          <option value={option.values![0]}>Yes ({option.values![0]})</option>
          <option value={option.values![1]}>No ({option.values![1]})</option>
        </select>
      ) : option.kind === 'format' ? (
        <select {...common}>
          <option value="">Default (table)</option>
          {OUTPUT_FORMATS.map((format) => (
            <option key={format} value={format}>
              {format}
            </option>
          ))}
          {value && !(OUTPUT_FORMATS as readonly string[]).includes(value) ? (
            <option value={value}>{value}</option>
          ) : null}
        </select>
      ) : (
        <input {...common} type="text" inputMode={option.kind === 'int' ? 'numeric' : undefined} autoComplete="off" />
      )}
      <div data-help="" id={`${id}-help`}>
        {option.description} <code>{option.name}</code>
      </div>
      {error ? (
        <div data-error="" id={`${id}-error`}>
          {error}
        </div>
      ) : null}
    </div>
  )
}

/** The options, grouped as the spec lists them, in a disclosure open when any is set or wrong. */
const QueryOptions = memo(function QueryOptions({
  values,
  errors,
}: {
  values: Record<string, string>
  errors: Record<string, string>
}) {
  const count = Object.keys(values).length
  const isOpen = count > 0 || Object.keys(errors).length > 0
  return (
    <chakra.details open={isOpen} borderWidth="1px" rounded="md" bg="bg" css={fieldCss}>
      <chakra.summary cursor="pointer" px="3" py="2" fontSize="sm" fontWeight="medium">
        Query options{count ? ` (${count} set)` : ''}
      </chakra.summary>
      <Box px="3" pb="1">
        <Text fontSize="xs" color="fg.muted" mb="2">
          Only the options you fill are sent; the others keep the cluster's, project's and table's defaults.
        </Text>
        {QUERY_OPTION_GROUPS.map((group) => (
          <fieldset key={group.title}>
            <legend>{group.title}</legend>
            <div data-grid="">
              {group.options.map((option) => (
                <OptionField
                  key={option.name}
                  option={option}
                  value={values[option.name]}
                  error={errors[option.name]}
                />
              ))}
            </div>
          </fieldset>
        ))}
      </Box>
    </chakra.details>
  )
})

/**
 * While a run is pending: where it stands on the server (rows received) and on the cluster (rows the
 * engine has read, where the cluster's query log reports them), asked once a second.
 */
function useRunProgress(search: string | null): QueryProgress | null {
  const [progress, setProgress] = useState<QueryProgress | null>(null)
  useEffect(() => {
    setProgress(null)
    if (search === null) return
    const controller = new AbortController()
    let timer = 0
    const ask = async () => {
      try {
        const response = await fetch(withBase(`/resources/query-progress?${search}`), {
          signal: controller.signal,
          headers: { Accept: 'application/json' },
        })
        if (response.ok) setProgress((await response.json()) as QueryProgress)
      } catch {
        // Progress is a courtesy: the run goes on whatever happens here.
      }
      if (!controller.signal.aborted) timer = window.setTimeout(ask, 1000)
    }
    timer = window.setTimeout(ask, 700)
    return () => {
      controller.abort()
      window.clearTimeout(timer)
    }
  }, [search])
  return progress
}

/**
 * False until the frame after this page's first paint. Ace mounts then: creating it measures the
 * page (forced layouts, tens of ms), and after a run that would hold back the first rows of the
 * result; the textarea it replaces works the same meanwhile.
 */
function useAfterFirstPaint(): boolean {
  const [isPainted, setIsPainted] = useState(false)
  useEffect(() => {
    let timer = 0
    const frame = window.requestAnimationFrame(() => {
      timer = window.setTimeout(() => setIsPainted(true), 0)
    })
    return () => {
      window.cancelAnimationFrame(frame)
      window.clearTimeout(timer)
    }
  }, [])
  return isPainted
}

function useElapsedSeconds(isRunning: boolean): number {
  const [seconds, setSeconds] = useState(0)
  useEffect(() => {
    if (!isRunning) return
    setSeconds(0)
    const started = Date.now()
    const timer = window.setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 500)
    return () => window.clearInterval(timer)
  }, [isRunning])
  return seconds
}

const NO_ERRORS: Record<string, string> = {}
const NO_VIEW: [string, string][] = []

/**
 * Where a run goes: /result, scrolled to the result (the fragment survives a GET form's submission,
 * so without scripts the browser lands on the result too, with the editor just above it).
 */
const RESULT_ACTION = '/result#result'

/** Where the Cancel button posts the form: the run of this SQL with these options stops on the cluster. */
const CANCEL_ACTION = '/resources/query-cancel'

/**
 * The form's filled fields: what a run's link carries (the SQL, the options set, the parameters'
 * values, an empty one too, and the chart view, an empty `split` saying "none"; nothing else).
 */
function filledFields(data: FormData): URLSearchParams {
  const params = new URLSearchParams()
  for (const [key, entry] of data) {
    if (typeof entry !== 'string') continue
    if (entry.trim() !== '' || paramNameOf(key) !== null || key === 'split') params.append(key, entry)
  }
  return params
}

/**
 * The query form: a POST to /result, which runs the query, records it in the history and redirects
 * to the run's shareable URL (a GET, which never writes anything: issue 37). The SQL is a textarea named
 * `sql` in server HTML, replaced by Ace once scripts load. `error` shows beside the editor.
 */
export function QueryEditorForm({
  sql,
  options,
  optionErrors,
  sqlError,
  error,
  isCompact = false,
  schema,
  save = {},
  history,
  paramErrors = NO_ERRORS,
  view = NO_VIEW,
}: {
  sql: string
  options: Record<string, string>
  optionErrors: Record<string, string>
  sqlError?: string
  error?: ReactNode
  /** Above a result: a shorter editor, so the result's first rows are on screen (1280×800). */
  isCompact?: boolean
  /** The schema tree beside the editor and the autocomplete's names; none when the cluster could not list them. */
  schema?: SchemaTreeData | null
  /** The Save control's name and a refused save's errors (the name's, and one for the form). */
  save?: SaveState
  /** The user's recent runs from the cluster; the History disclosure shows when given. */
  history?: { entries: HistoryEntry[]; error: string | null }
  /** The cluster's messages for parameter values it refused, by parameter name. */
  paramErrors?: Record<string, string>
  /** The result's chart view (`tab=chart`, `chart`, `x`, `y`, `split`): a Run and a Save keep it. */
  view?: [string, string][]
}) {
  const hasOptionErrors = Object.keys(optionErrors).length > 0
  const [value, setValue] = useState(sql)
  const paramValues = useMemo(() => paramValuesOf(options), [options])
  const optionValues = useMemo(() => withoutParams(options), [options])
  const formRef = useRef<HTMLFormElement>(null)
  const submit = useSubmit()
  const navigation = useNavigation()
  const isHydrated = useHydrated()
  // A Run is a POST (it runs and records the history), then the GET of its link; another page or tab
  // of a run is a GET.
  const isRunning =
    navigation.state !== 'idle' &&
    navigation.location.pathname === '/result' &&
    !navigation.location.search.includes('tab=analysis')
  const elapsed = useElapsedSeconds(isRunning)
  const isPainted = useAfterFirstPaint()
  const progress = useRunProgress(
    !isRunning
      ? null
      : navigation.formData
        ? filledFields(navigation.formData).toString()
        : navigation.location.search.replace(/^\?/, ''),
  )

  // A new SQL from the route (another run, a saved query) replaces the editor's; not on mount, where
  // an effect would undo text typed before hydration (restored by useRestoreEarlyText)
  const [routeSql, setRouteSql] = useState(sql)
  if (routeSql !== sql) {
    setRouteSql(sql)
    setValue(sql)
  }

  const editorRef = useRef<Ace.Editor | null>(null)
  const onEditor = useCallback((editor: Ace.Editor | null) => {
    editorRef.current = editor
  }, [])
  // the tree and autocomplete grow as projects and tables are opened (issue 33); a new tree from the route replaces them
  const [tree, setTree] = useState(schema)
  const [routeSchema, setRouteSchema] = useState(schema)
  if (routeSchema !== schema) {
    setRouteSchema(schema)
    setTree(schema)
  }
  const openProject = useCallback((projectId: string) => {
    fetch(withBase(`/resources/query-schema?project=${encodeURIComponent(projectId)}`))
      .then((response) => (response.ok ? response.json() : null))
      .then((part) => {
        if (part) setTree((current) => (current ? withProjectPart(current, projectId, part) : current))
      })
      .catch(() => {
        // the project stays unopened; a link opens it
      })
  }, [])
  const openTable = useCallback((projectId: string, tableId: string) => {
    fetch(
      withBase(`/resources/query-schema?project=${encodeURIComponent(projectId)}&table=${encodeURIComponent(tableId)}`),
    )
      .then((response) => (response.ok ? response.json() : null))
      .then((part: { columns: { name: string; type: string }[] } | null) => {
        if (part)
          setTree((current) => (current ? withTableColumns(current, projectId, tableId, part.columns) : current))
      })
      .catch(() => {
        // the table stays unopened
      })
  }, [])
  const [engineFunctions, setEngineFunctions] = useState<string[]>([])
  useEffect(() => {
    if (!schema) return
    const controller = new AbortController()
    fetch(withBase('/resources/query-functions'), { signal: controller.signal })
      .then((response) => (response.ok ? (response.json() as Promise<string[]>) : []))
      .then(setEngineFunctions)
      .catch(() => {
        // Autocomplete keeps the schema's names and the keywords.
      })
    return () => controller.abort()
  }, [schema])
  const completions = useMemo(() => (tree ? completionsOf(tree, engineFunctions) : []), [tree, engineFunctions])
  const insert = useCallback((text: string) => {
    const editor = editorRef.current
    if (editor) {
      editor.insert(text)
      editor.focus()
    } else setValue((current) => `${current}${current && !/\s$/.test(current) ? ' ' : ''}${text}`)
  }, [])

  // Stable, like `insert`: while a run is pending the form re-renders (Run's spinner, the elapsed
  // seconds), and the editor, the schema tree and the options must not re-render with it: they are
  // most of the page's style work, and it would compete with the run for the CPU.
  const run = useCallback(() => formRef.current?.requestSubmit(), [])
  // Only filled fields go in the URL, so a result link carries the SQL and the options set, nothing else.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    // Save and Cancel post the same fields to their own actions: Remix's Form sends them as the button says.
    const submitter = (event.nativeEvent as SubmitEvent).submitter
    if (submitter?.getAttribute('formmethod') === 'post') return
    event.preventDefault()
    submit(filledFields(new FormData(event.currentTarget)), { method: 'post', action: RESULT_ACTION })
  }
  // Without scripts the page cannot know a run is pending, so the button is always there.
  const cancelButton = (
    <Button
      type="submit"
      formAction={withBase(CANCEL_ACTION)}
      formMethod="post"
      formNoValidate
      variant="outline"
      colorPalette="red"
      size="sm"
    >
      {isHydrated ? 'Cancel' : 'Cancel the query'}
    </Button>
  )
  const describedBy = [sqlError || error ? 'sql-error' : '', 'sql-help'].filter(Boolean).join(' ')
  return (
    <Form method="post" action={RESULT_ACTION} ref={formRef} onSubmit={onSubmit} aria-label="Query">
      {view.map(([name, entry], index) => (
        <input key={`${name}-${index}`} type="hidden" name={name} value={entry} />
      ))}
      <Stack gap="3">
        {/* the SQL's {name:Type} placeholders, as the engine reads them: an input each, as the SQL is typed */}
        {value.includes('{') ? (
          <Suspense fallback={null}>
            <QueryParamsFields sql={value} values={paramValues} errors={paramErrors} css={fieldCss} />
          </Suspense>
        ) : null}
        <Grid
          templateColumns={schema ? { base: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) 16rem' } : 'minmax(0, 1fr)'}
          gap="3"
          alignItems="start"
        >
          <Box>
            <chakra.label htmlFor="sql" display="block" fontWeight="medium" fontSize="sm" mb="1">
              SQL
            </chakra.label>
            <SqlInput
              value={value}
              onValue={setValue}
              isInvalid={Boolean(sqlError || error)}
              isCompact={isCompact}
              isPainted={isPainted}
              describedBy={describedBy}
              onRun={run}
              onEditor={onEditor}
              completions={completions}
            />
            <Text id="sql-help" fontSize="xs" color="fg.muted" mt="1">
              {isHydrated ? 'Ctrl+Enter (⌘+Enter) runs the query; Ctrl+Space suggests names. ' : ''}Results show at most
              10,000 rows.
            </Text>
            {sqlError || error ? (
              <InlineAlert id="sql-error" mt="2">
                {sqlError ? <Text>{sqlError}</Text> : error}
              </InlineAlert>
            ) : null}
          </Box>
          {tree ? (
            <MemoSchemaTree schema={tree} onInsert={insert} onOpenProject={openProject} onOpenTable={openTable} />
          ) : null}
        </Grid>
        <QueryOptions values={optionValues} errors={optionErrors} />
        {hasOptionErrors ? (
          <Text role="alert" color="fg.error" fontSize="sm">
            The query was not run: correct the options marked above.
          </Text>
        ) : null}
        <HStack gap="3" wrap="wrap">
          <Button type="submit" colorPalette="blue" loading={isRunning} loadingText="Running…">
            Run
          </Button>
          {isRunning ? (
            <HStack gap="3" fontSize="sm" wrap="wrap">
              <Text role="status" data-testid="run-progress">
                Running the query… {elapsed}s{runFigures(progress)}
              </Text>
              {cancelButton}
            </HStack>
          ) : isHydrated ? null : (
            <HStack gap="2" fontSize="xs" color="fg.muted">
              {cancelButton}
              <Text>stops it on the cluster while it is running.</Text>
            </HStack>
          )}
        </HStack>
        <SaveControl save={save} />
        {history ? <MemoQueryHistory entries={history.entries} error={history.error} /> : null}
      </Stack>
    </Form>
  )
}

const MemoSchemaTree = memo(SchemaTree)

/**
 * The SQL field: a textarea in server HTML and until the page has painted, then Ace over it. Memoised
 * with stable callbacks, so a pending run's re-renders leave it (and Ace's key bindings) alone.
 */
const SqlInput = memo(function SqlInput({
  value,
  onValue,
  isInvalid,
  isCompact,
  isPainted,
  describedBy,
  onRun,
  onEditor,
  completions,
}: {
  value: string
  onValue: (value: string) => void
  isInvalid: boolean
  isCompact: boolean
  isPainted: boolean
  describedBy: string
  onRun: () => void
  onEditor: (editor: Ace.Editor | null) => void
  completions: SchemaCompletion[]
}) {
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault()
      onRun()
    }
  }
  const textarea = (
    <chakra.textarea
      id="sql"
      name="sql"
      defaultValue={value}
      onChange={(event) => onValue(event.currentTarget.value)}
      onKeyDown={onKeyDown}
      rows={isCompact ? 4 : 9}
      w="full"
      p="3"
      fontFamily="mono"
      fontSize="sm"
      borderWidth="1px"
      borderColor={isInvalid ? 'border.error' : 'border'}
      rounded="md"
      bg="bg"
      spellCheck={false}
      aria-invalid={isInvalid ? true : undefined}
      aria-describedby={describedBy}
      placeholder="SELECT * FROM project.table LIMIT 100"
    />
  )
  return (
    <ClientOnly fallback={textarea}>
      {() =>
        isPainted ? (
          <Suspense fallback={textarea}>
            <Box
              borderWidth="1px"
              borderColor={isInvalid ? 'border.error' : 'border'}
              rounded="md"
              overflow="hidden"
              bg="bg"
            >
              <SqlEditor
                name="sql"
                value={value}
                onChange={onValue}
                onRun={onRun}
                onEditor={onEditor}
                completions={completions}
                label="SQL"
                describedBy={describedBy}
                height={isCompact ? 110 : 220}
              />
            </Box>
          </Suspense>
        ) : (
          textarea
        )
      }
    </ClientOnly>
  )
})

/** " · 1,234,567 rows read · 500 rows received" as far as the progress says. */
function runFigures(progress: QueryProgress | null): string {
  if (!progress || progress.state !== 'running') return ''
  const parts: string[] = []
  if (progress.rowsRead) parts.push(`${formatNumber(progress.rowsRead)} rows read`)
  if (progress.rowsReceived) parts.push(`${formatNumber(progress.rowsReceived)} rows received`)
  return parts.map((part) => ` · ${part}`).join('')
}

/** The Save control's state: the name shown, and a refused save's errors. */
export type SaveState = { name?: string; isShared?: boolean; nameError?: string; formError?: string }

/** Where Save posts: the editor's index route, so a refused save shows the editor again with everything typed. */
const SAVE_ACTION = '/queries?index'

/**
 * "Save…": a name and a submit button that posts the query form (its SQL and options) to the
 * editor's action, so it works without scripts. Open when a name is given or a save was refused.
 */
function SaveControl({ save }: { save: SaveState }) {
  const navigation = useNavigation()
  const saveRef = useRef<HTMLButtonElement>(null)
  const isSaving =
    navigation.state === 'submitting' &&
    navigation.formMethod === 'POST' &&
    navigation.formAction?.startsWith('/queries') === true
  const describedBy = ['save-name-help', save.nameError ? 'save-name-error' : ''].filter(Boolean).join(' ')
  return (
    <chakra.details
      open={Boolean(save.nameError || save.formError)}
      borderWidth="1px"
      rounded="md"
      bg="bg"
      css={fieldCss}
    >
      <chakra.summary cursor="pointer" px="3" py="2" fontSize="sm" fontWeight="medium">
        Save…{save.name ? ` (${save.name})` : ''}
      </chakra.summary>
      <Box px="3" pb="3">
        <HStack gap="2" align="end" wrap="wrap">
          <Box minW="16rem" flex="1" maxW="28rem">
            <label htmlFor="save-name">Name</label>
            <input
              id="save-name"
              name="name"
              type="text"
              defaultValue={save.name ?? ''}
              maxLength={SAVED_QUERY_NAME_MAX * 2}
              autoComplete="off"
              aria-invalid={save.nameError ? true : undefined}
              aria-describedby={describedBy}
              onKeyDown={(event) => {
                // Enter here saves; without scripts the browser's Enter runs the query (the form's first button).
                if (event.key === 'Enter') {
                  event.preventDefault()
                  event.currentTarget.form?.requestSubmit(saveRef.current)
                }
              }}
            />
          </Box>
          <Button
            ref={saveRef}
            type="submit"
            name="intent"
            value="save"
            formMethod="post"
            formAction={withBase(SAVE_ACTION)}
            variant="outline"
            size="sm"
            h="9"
            loading={isSaving}
            loadingText="Saving…"
          >
            Save query
          </Button>
        </HStack>
        <chakra.label display="flex" gap="2" alignItems="center" mt="2" fontSize="sm">
          <input
            type="checkbox"
            name="visibility"
            value="org"
            defaultChecked={save.isShared ?? false}
            aria-describedby="save-name-help"
          />
          Share with everyone in the organization
        </chakra.label>
        <Box data-help="" id="save-name-help">
          A saved query is yours alone unless shared: shared ones show on everyone’s Saved tab. Saving again under one
          of your names updates it.
        </Box>
        {save.nameError ? (
          <Box data-error="" id="save-name-error">
            {save.nameError}
          </Box>
        ) : null}
        {save.formError ? (
          <InlineAlert mt="2">
            <Text>{save.formError}</Text>
          </InlineAlert>
        ) : null}
      </Box>
    </chakra.details>
  )
}

/** The history list's look, set once: its entries are plain elements (a Chakra component each cost a style computation per render). */
const historyCss = {
  '& li': { display: 'flex', gap: '3', alignItems: 'baseline', py: '1' },
  '& [data-muted]': { color: 'fg.muted', fontSize: 'xs', whiteSpace: 'nowrap' },
  '& [data-failed]': { color: 'fg.error' },
  '& a': { minWidth: 0, flex: 1 },
  '& [data-sql]': {
    display: 'block',
    fontFamily: 'mono',
    fontSize: 'xs',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  '& a:hover [data-sql]': { color: 'blue.600' },
} as const

/** The user's recent statements, newest first: each a link that opens it in the editor, never runs it. */
const MemoQueryHistory = memo(function QueryHistory({
  entries,
  error,
}: {
  entries: HistoryEntry[]
  error: string | null
}) {
  if (!entries.length && !error) return null
  return (
    <chakra.details borderWidth="1px" rounded="md" bg="bg" fontSize="sm">
      <chakra.summary cursor="pointer" px="3" py="2" fontWeight="medium">
        History ({entries.length})
      </chakra.summary>
      {error ? (
        <Text px="3" pb="2" color="fg.muted">
          {error}
        </Text>
      ) : null}
      <chakra.ul listStyleType="none" m="0" px="3" pb="2" aria-label="Query history" css={historyCss}>
        {entries.map((entry) => (
          <li key={entry.sql}>
            <span data-muted="">
              <DateTime value={entry.at} />
            </span>
            <Link to={editorLink(entry.sql, entry.options)} title={entry.sql}>
              <span data-sql="">{entry.sql}</span>
            </Link>
            <span data-muted="" data-failed={entry.error ? '' : undefined}>
              {entry.error ? 'failed' : `${entry.rows} ${entry.rows === 1 ? 'row' : 'rows'}`} · {entry.elapsedMs} ms
            </span>
          </li>
        ))}
      </chakra.ul>
    </chakra.details>
  )
})
