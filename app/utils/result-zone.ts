/**
 * A result column's type as the grid labels it (issue 54, smaller points): a date-time without a
 * zone of its own is in the cluster's zone, UTC (Hydrolix runs in UTC, as the local cluster's engine
 * does), so it says so; the table pages show times in the user's zone, labelled, and an unlabelled
 * result beside them read as the same zone. A type naming its zone (`DateTime('Europe/Paris')`) is
 * shown as it is.
 */
export function zoneLabelledType(type: string): string {
  return /^(Nullable\()?(LowCardinality\()?DateTime(64)?(\(\d+\))?\)*$/.test(type) ? `${type} UTC` : type
}
