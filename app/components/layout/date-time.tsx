import { engineTimeToIso, formatEngineTime } from '~/utils/engine-time'
import { formatDateTime } from '~/utils/format-date'
import { useDisplayZone } from './use-timezone'

/**
 * A timestamp in the user's timezone preference, labelled with its zone. "Local" is the zone the
 * browser reported (remembered from an earlier page, so the server renders it too); before any
 * page has reported one, UTC until scripts run. Never an unlabelled time in a zone the user did
 * not choose.
 */
export function DateTime({ value }: { value: string | number | null | undefined }) {
  const text = formatDateTime(value, useDisplayZone())
  if (value === null || value === undefined || value === '') return <>{text}</>
  const date = new Date(value)
  return <time dateTime={Number.isNaN(date.getTime()) ? undefined : date.toISOString()}>{text}</time>
}

/**
 * A time text as the engine returns it (UTC: a DateTime column of a table's rows) in the user's
 * timezone preference, labelled, in the engine's own layout: `2026-12-02 20:25:44.498 CET`. Text
 * that is not such a time is shown as it is.
 */
export function EngineDateTime({ text }: { text: string }) {
  const shown = formatEngineTime(text, useDisplayZone())
  const iso = engineTimeToIso(text)
  return iso ? <time dateTime={iso}>{shown}</time> : <>{shown}</>
}
