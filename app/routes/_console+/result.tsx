import { Box, Text } from '~/components/ui/box'
import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
  type SerializeFrom,
} from '@remix-run/node'
import { type ShouldRevalidateFunctionArgs } from '@remix-run/react'
import { lazy, Suspense } from 'react'
import { requireApi } from '~/api/client.server'
import { PageHeader } from '~/components/layout/page-header'
import { routeErrorBoundary } from '~/components/layout/route-error'
import { QueryErrorText } from '~/components/query-result/query-error-text'
import { ResultSection } from '~/components/query-result/result-section'
import { loadResultPage, runConfirmedChange, runFromForm } from '~/services/query/result-page.server'
import type { AnalysisPart, ChartPart, QueryOutcome } from '~/services/query/run.server'
import { CHART_FIELDS, CHART_TAB } from '~/utils/chart-values'
import type { RouteHandle } from '~/utils/handle'
import { RUN_CHANGE_INTENT, tabOf } from '~/utils/result-page'
import { type StatementDoubt } from '~/utils/sql-statement'
import {
  QueryWorkspaceRoute,
  type WorkspaceHandle,
  type WorkspaceInput,
  type WorkspaceView,
} from './queries+/__workspace'

// The confirmation of a change is in the result page's lazy chunk, shown only when one waits (decision 100).
const resultExtras = () => import('~/components/query-result/result-extras')
const ConfirmChange = lazy(() => resultExtras().then((module) => ({ default: module.ConfirmChange })))

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApi(request)
  return loadResultPage(api, new URL(request.url))
}

/**
 * A Run (the query form's POST, which redirects to its run's link), or a statement that changes data
 * after the user confirmed it on this page (services/query/result-page.server.ts).
 */
export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData()
  return formData.has('intent') ? runConfirmedChange(request, formData) : runFromForm(request, formData)
}

/**
 * Results and Statistics come from the same run: with scripts, switching between them keeps the
 * loaded result instead of running the query again. Any other change (a new run included) reloads.
 */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (formMethod) return defaultShouldRevalidate
  const current = new URLSearchParams(currentUrl.search)
  const next = new URLSearchParams(nextUrl.search)
  const from = tabOf(current.get('tab'))
  const to = tabOf(next.get('tab'))
  current.delete('tab')
  next.delete('tab')
  // the chart is drawn by the loader (the whole run, the SVG): going to it or changing it loads it;
  // leaving it for Results or Statistics keeps the run's page it came with
  if (to === CHART_TAB) return defaultShouldRevalidate
  for (const name of CHART_FIELDS) {
    current.delete(name)
    next.delete(name)
  }
  // the run's id added to the links of a page opened without one names the same run
  if (!current.has('run')) next.delete('run')
  if (
    currentUrl.pathname === nextUrl.pathname &&
    current.toString() === next.toString() &&
    from !== 'analysis' &&
    to !== 'analysis'
  )
    return false
  return defaultShouldRevalidate
}

/** The page's search with the run it shows: its tabs, pages and streamed rows are of that run. */
function withRun(search: string, runId: string | undefined): string {
  const params = new URLSearchParams(search)
  if (runId) params.set('run', runId)
  return `?${params}`
}

/** What an action's answer holds (the two POSTs that show their run here rather than redirect). */
type RanHere = {
  sql?: string
  options?: SerializeFrom<typeof loader>['options']
  optionErrors?: SerializeFrom<typeof loader>['optionErrors']
  sqlError?: string
  saveName?: string
  isChange?: boolean
  doubt?: StatementDoubt | null
  doubtText?: string | null
  linkTooLong?: boolean
  paramErrors?: Record<string, string> | null
  outcome: unknown
}

/** A run's part of the shared Query workspace (./queries+/__workspace): the editor above, the result below. */
function resultView({ data, actionData, location }: WorkspaceInput): WorkspaceView {
  const loaded = data as SerializeFrom<typeof loader>
  // A POST's own answer (a confirmed change, or a Run too long for a link) shows what it ran.
  const ran = actionData as RanHere | undefined
  const outcome = (ran ? ran.outcome : loaded.outcome) as QueryOutcome | null
  const isConfirming = ran ? Boolean(ran.isChange && !ran.outcome) : loaded.isChange
  const analysis = ran ? null : (loaded.analysis as AnalysisPart[] | null)
  const sql = ran?.sql ?? loaded.sql
  // a value the engine refused for a parameter: its message goes on that parameter's input
  const paramErrors = (ran ? ran.paramErrors : loaded.paramErrors) ?? undefined
  const refusedParam = paramErrors ? Object.keys(paramErrors)[0] : null
  return {
    header: <PageHeader title="Query" mb="2" />,
    sql,
    picker: loaded.picker,
    // The key the editor has on /queries: a run keeps it mounted.
    editorKey: 'editor',
    editor: {
      sql,
      options: ran?.options ?? loaded.options,
      optionErrors: ran?.optionErrors ?? loaded.optionErrors,
      sqlError: ran ? ran.sqlError : loaded.sqlError,
      schema: loaded.schema,
      save: { name: (ran?.saveName ?? loaded.saveName) || undefined },
      isCompact: Boolean(outcome && outcome.kind !== 'error'),
      paramErrors,
      view: ran ? undefined : loaded.view,
      error:
        outcome?.kind === 'error' ? (
          refusedParam ? (
            <Text>
              The query was not run: the cluster refused the value of parameter <code>{refusedParam}</code> (see its
              field above).
            </Text>
          ) : (
            <QueryErrorText message={outcome.message} status={outcome.status} position={outcome.position} />
          )
        ) : undefined,
    },
    after: (
      <>
        {ran?.linkTooLong ? (
          <Box role="status" bg="bg.muted" rounded="md" px="3" py="2" mb="3" fontSize="sm">
            <Text fontWeight="medium">This query is too long for a link</Text>
            It ran from the form: reloading this page or sharing its address does not run it again. Saved queries and
            History keep it.
          </Box>
        ) : null}
        {isConfirming ? (
          <Suspense fallback={<Text>Loading…</Text>}>
            <ConfirmChange
              sql={sql}
              doubtText={(ran ? ran.doubtText : loaded.doubtText) ?? null}
              intent={RUN_CHANGE_INTENT}
            />
          </Suspense>
        ) : null}
        {outcome || analysis ? (
          <ResultSection
            outcome={outcome}
            analysis={analysis}
            chart={ran ? null : (loaded.chart as ChartPart | null)}
            search={withRun(location.search, loaded.runId)}
          />
        ) : null}
      </>
    ),
  }
}

export const handle: RouteHandle & WorkspaceHandle = { docsTopic: 'query', workspaceView: resultView }

export default QueryWorkspaceRoute

export const meta: MetaFunction = () => [{ title: 'Query result · Cluster Console' }]

export const ErrorBoundary = routeErrorBoundary({ title: 'The query could not be run' })
