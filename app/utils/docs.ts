/** The page topics that pick the contextual Docs and API links (spec section 1). */
export const DOCS_TOPICS = [
  'table',
  'dictionary',
  'function',
  'file',
  'alter',
  'batch',
  'query',
  'scale',
  'user',
  'role',
  'source',
  'kafka',
  'kinesis',
  'autoBatch',
  'transform',
  'system health',
  'summary settings',
] as const
export type DocsTopic = (typeof DOCS_TOPICS)[number]

/** Paths under DOCS_URL: the guide for a topic, and its Config API reference. */
const TOPIC_PATHS: Record<DocsTopic, { docs: string; api: string }> = {
  table: { docs: '/docs/tables', api: '/reference/tables_list' },
  dictionary: { docs: '/docs/dictionaries', api: '/reference/dictionaries_list' },
  function: { docs: '/docs/custom-functions', api: '/reference/functions_list' },
  file: { docs: '/docs/dictionaries#dictionary-files', api: '/reference/dictionaries_files_list' },
  alter: { docs: '/docs/alter', api: '/reference/jobs_alter_list' },
  batch: { docs: '/docs/batch-ingest', api: '/reference/jobs_batch_list' },
  query: { docs: '/docs/query', api: '/reference/query' },
  scale: { docs: '/docs/scale-profiles', api: '/reference/pools_list' },
  user: { docs: '/docs/user-management', api: '/reference/users_list' },
  role: { docs: '/docs/rbac', api: '/reference/roles_list' },
  source: { docs: '/docs/ingest', api: '/reference/sources_list' },
  kafka: { docs: '/docs/kafka-streaming-ingest', api: '/reference/sources_kafka_list' },
  kinesis: { docs: '/docs/kinesis-streaming-ingest', api: '/reference/sources_kinesis_list' },
  autoBatch: { docs: '/docs/autoingest', api: '/reference/tables_update' },
  transform: { docs: '/docs/transforms', api: '/reference/transforms_list' },
  'system health': { docs: '/docs/monitoring', api: '/reference/version' },
  'summary settings': { docs: '/docs/summary-tables', api: '/reference/summary_sources_list' },
}

/** Returns the Docs and API links for `topic` under `docsUrl` (null when the page has no topic). */
export function docsLinks(docsUrl: string, topic: DocsTopic | undefined): { docs: string; api: string } | null {
  if (!topic) return null
  const paths = TOPIC_PATHS[topic]
  const base = docsUrl.replace(/\/+$/, '')
  return { docs: `${base}${paths.docs}`, api: `${base}${paths.api}` }
}
