import { CHART_TAB } from './chart-values'

/** The result page's tabs (`?tab=`; none is Results). */
export const RESULT_TABS = ['results', CHART_TAB, 'statistics', 'analysis'] as const
export type ResultTab = (typeof RESULT_TABS)[number]

/** The tab a `?tab=` names; Results for anything else. */
export function tabOf(value: string | null): ResultTab {
  return (RESULT_TABS as readonly string[]).includes(value ?? '') ? (value as ResultTab) : 'results'
}

/** The intent of the form that runs a statement changing data once the user confirmed it. */
export const RUN_CHANGE_INTENT = 'run-change'
