import { chakra } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { HStack, Stack } from '~/components/ui/stack'
import { Heading } from '~/components/ui/heading'
import { Link } from '~/components/ui/link'
import { DetailList } from '~/components/layout/detail-list'
import { InlineAlert } from '~/components/layout/inline-alert'
import { withBase } from '~/utils/base-path'
import { formatNumber } from '~/utils/format-number'
import { ConfirmPanel } from '~/components/forms/confirm-panel'
import { isAlterJobSql } from '~/schemas/job-values'
import type { AnalysisPart, QueryOutcome } from '~/services/query/run.server'

/**
 * The result page's parts shown on their own tab (Statistics, Analysis), only without scripts (the
 * pager) or only for a statement that changes data (its confirmation): a chunk of their own, rendered on the server
 * like the rest, so the result page's
 * first load holds what every run shows (decision 100).
 */

/** Without scripts the result comes in pages: links that keep the query and its options in the URL. */
export function ResultPager({ outcome, search }: { outcome: Extract<QueryOutcome, { kind: 'rows' }>; search: string }) {
  const pages = Math.ceil(outcome.rowCount / outcome.pageSize)
  if (pages <= 1) return null
  const current = Math.floor(outcome.offset / outcome.pageSize) + 1
  const href = (page: number) => {
    const params = new URLSearchParams(search)
    if (page === 1) params.delete('page')
    else params.set('page', String(page))
    return withBase(`/result?${params}#result`)
  }
  const first = outcome.offset + 1
  const last = outcome.offset + outcome.rows.length
  // Around the current page, the first and the last: at most about ten links for twenty pages.
  const shown = Array.from({ length: pages }, (_, index) => index + 1).filter(
    (page) => page === 1 || page === pages || Math.abs(page - current) <= 3,
  )
  return (
    <chakra.nav aria-label="Result pages" fontSize="sm">
      <HStack gap="2" wrap="wrap">
        <Text>
          Rows {formatNumber(first)}–{formatNumber(last)} of {formatNumber(outcome.rowCount)}
        </Text>
        {current > 1 ? (
          <Link href={href(current - 1)} rel="prev">
            Previous
          </Link>
        ) : null}
        {shown.map((page, index) => (
          <HStack key={page} gap="2">
            {index > 0 && page - shown[index - 1]! > 1 ? <Text aria-hidden="true">…</Text> : null}
            {page === current ? (
              <Text as="span" fontWeight="semibold" aria-current="page">
                {page}
              </Text>
            ) : (
              <Link href={href(page)} aria-label={`Page ${page}`}>
                {page}
              </Link>
            )}
          </HStack>
        ))}
        {current < pages ? (
          <Link href={href(current + 1)} rel="next">
            Next
          </Link>
        ) : null}
      </HStack>
    </chakra.nav>
  )
}

const STAT_LABELS: Record<string, string> = {
  exec_time: 'Execution time (ms)',
  rows_read: 'Rows read',
  bytes_read: 'Bytes read',
  num_partitions: 'Partitions',
  num_peers: 'Peers',
  query_attempts: 'Attempts',
  memory_usage: 'Memory usage (bytes)',
}

/** A statistic as shown: grouped digits when it is a number, else as the cluster sent it. */
function formatStat(value: string | number): string {
  const number = Number(value)
  return Number.isFinite(number) && String(value).trim() !== '' ? formatNumber(number) : String(value)
}

/**
 * One statistic as shown: the engine's own count of rows and bytes read when the answer carried it
 * (the figure the engine measured, not a summary header's), and "not reported" for a memory figure
 * of 0 (a cluster that does not measure it says 0).
 */
function statValue(key: string, value: string, engine: Record<string, number>): string {
  if ((key === 'rows_read' || key === 'bytes_read') && engine[key] !== undefined) return formatStat(String(engine[key]))
  if (/memory/.test(key) && Number(value) === 0) return 'not reported'
  return formatStat(value)
}

export function Statistics({ outcome }: { outcome: QueryOutcome }) {
  if (outcome.kind === 'error') return <Text color="fg.muted">The query failed, so there are no statistics.</Text>
  const { stats } = outcome
  const entries: [string, string][] = [
    ['Rows returned', outcome.kind === 'rows' ? formatNumber(outcome.rowCount) : '—'],
    ['Elapsed (round trip, ms)', formatStat(stats.elapsedMs)],
    ...Object.entries(stats.cluster).map(([key, value]): [string, string] => [
      STAT_LABELS[key] ?? key.replace(/_/g, ' '),
      statValue(key, value, stats.engine),
    ]),
  ]
  if (stats.engine.elapsed !== undefined) entries.push(['Engine elapsed (s)', String(stats.engine.elapsed)])
  if (stats.queryId) entries.push(['Query ID', stats.queryId])
  return (
    <Box borderWidth="1px" rounded="md" bg="bg" p="4">
      <DetailList
        label="Query statistics"
        labelWidth="14rem"
        entries={entries.map(([label, value]) => [label, <code key={label}>{value}</code>])}
      />
    </Box>
  )
}

export function Analysis({ parts }: { parts: AnalysisPart[] }) {
  return (
    <Stack gap="4">
      {parts.map((part) => (
        <Box key={part.title} as="section" aria-label={part.title}>
          <Heading as="h3" size="sm" mb="1">
            {part.title}
          </Heading>
          <Text fontSize="xs" color="fg.muted" mb="1" fontFamily="mono" truncate>
            {part.statement.split('\n')[0]}
          </Text>
          {'text' in part ? (
            <chakra.pre borderWidth="1px" rounded="md" bg="bg" p="3" fontSize="sm" overflow="auto" maxH="50vh">
              {part.text}
            </chakra.pre>
          ) : (
            <InlineAlert>
              <chakra.pre whiteSpace="pre-wrap" fontSize="sm" m="0">
                {part.error}
              </chakra.pre>
            </InlineAlert>
          )}
        </Box>
      ))}
    </Stack>
  )
}

/**
 * The step between a changing statement (or one the console cannot read for sure: `doubt`) and its
 * run: a link or a reload shows this, never runs it.
 */
export function ConfirmChange({ sql, doubtText, intent }: { sql: string; doubtText: string | null; intent: string }) {
  const isAlterJob = isAlterJobSql(sql)
  return (
    <ConfirmPanel
      id="confirm-change"
      title={doubtText ? 'This statement may change data' : 'This statement changes data'}
      intent={intent}
      hiddenFields={{ sql }}
      confirmLabel={isAlterJob ? 'Create alter job' : 'Run this statement'}
      tone="warning"
      cancelTo={`/queries?${new URLSearchParams({ data: sql })}`}
    >
      {doubtText ? `${doubtText} ` : ''}
      {isAlterJob
        ? 'It becomes an alter job: the rows it changes are counted first and nothing changes until you commit the job.'
        : 'It runs on the cluster as soon as you confirm. Opening a link or reloading never runs it.'}
    </ConfirmPanel>
  )
}
