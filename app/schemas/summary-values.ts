/* The summary forms' messages and choices without zod: the forms' pages import these, and load the schemas after hydration. */

export const SUMMARY_MESSAGES = {
  parentRequired: 'Parent table is required',
  sqlRequired: 'Summary SQL is required',
  sqlNotFromParent: (parent: string) => `The summary SQL must read FROM the parent table ${parent}`,
  columnsRequired: 'At least one column must be selected',
  timestampRequired: 'Timestamp value is required',
  timestampPositive: 'Timestamp value must be greater than 0',
  timeframePositive: 'Timeframe value must be greater than 0',
  timestampColumnRequired: 'Timestamp column is required',
  /** Spec section 8, word for word. */
  illegalAggregation: 'Illegal Aggregation. Column cannot be aggregated if used in WHERE clause.',
} as const

export const AGGREGATIONS = ['skip', 'group', 'count', 'sum', 'avg', 'min', 'max', 'uniq'] as const
export const AGGREGATION_LABELS: Record<(typeof AGGREGATIONS)[number], string> = {
  skip: 'Not used',
  group: 'Group by',
  count: 'count()',
  sum: 'sum()',
  avg: 'avg()',
  min: 'min()',
  max: 'max()',
  uniq: 'uniq()',
}
export const TIME_UNITS = ['minute', 'hour', 'day'] as const
