import { useHydrated } from 'remix-utils/use-hydrated'
import { formatDateTime } from '~/utils/format-date'
import { useTimezone } from './use-timezone'

/**
 * A timestamp in the user's timezone preference. The server cannot know the browser's zone, so
 * without scripts (and in the first render) a "Local" preference shows UTC, labelled as such; once
 * scripts run, the browser's own zone. Never an unlabelled time in a zone the user did not choose.
 */
export function DateTime({ value }: { value: string | number | null | undefined }) {
  const timezone = useTimezone()
  const isHydrated = useHydrated()
  const text = formatDateTime(value, timezone === 'UTC' || !isHydrated ? 'UTC' : 'Local')
  if (value === null || value === undefined || value === '') return <>{text}</>
  const date = new Date(value)
  return <time dateTime={Number.isNaN(date.getTime()) ? undefined : date.toISOString()}>{text}</time>
}
