/* Ingest sources' kinds, labels and messages without zod (decision 077); `source.ts` re-exports them. */

/** Ingest source forms (spec sections 3 and 5): kafka, kinesis, security-event feed (siem). */

/** The kinds of pull source the console creates (the cluster's `sources/{subtype}/`). */
export const SOURCE_KINDS = ['kafka', 'kinesis', 'siem'] as const
export type SourceKind = (typeof SOURCE_KINDS)[number]

export const SOURCE_LABELS: Record<SourceKind, string> = {
  kafka: 'Kafka',
  kinesis: 'Kinesis',
  siem: 'Security-event feed',
}

export function isSourceKind(value: unknown): value is SourceKind {
  return typeof value === 'string' && (SOURCE_KINDS as readonly string[]).includes(value)
}

export const SOURCE_NAME_MAX = 27
export const KAFKA_OFFSETS = ['earliest', 'latest'] as const

export const SOURCE_MESSAGES = {
  transformRequired: 'Transform is required',
  nameRequired: 'Name is required',
  nameTooLong: 'Name must be at most 27 symbols',
  replicasRequired: 'Replicas are required',
  replicasInteger: 'Replicas must be a whole number',
  replicasOrder: 'Min replicas must be below max',
  cpuRequired: 'CPU is required',
  cpuPositive: 'CPU must be greater than 0',
  memoryRequired: 'Memory is required',
  memoryPositive: 'Memory must be greater than 0',
  storageRequired: 'Storage is required',
  storagePositive: 'Storage must be greater than 0',
  bootstrapRequired: 'Bootstrap servers are required',
  topicsRequired: 'Topics are required',
  secondsInteger: 'Read timeout must be a whole number of seconds',
  millisInteger: 'Max wait must be a whole number of milliseconds',
  streamRequired: 'Stream name is required',
  regionRequired: 'Region is required',
  checkpointerRequired: 'Checkpointer is required',
  secretWithKey: 'Cloud secret is required when the access key is filled',
  keyWithSecret: 'Cloud access key is required when the secret is filled',
  hostRequired: 'Host is required',
  configRequired: 'Configuration ID is required',
  clientSecretRequired: 'Client secret is required',
  clientTokenRequired: 'Client token is required',
  accessTokenRequired: 'Access token is required',
} as const

/** Auto batch is not a pull source: it lives in the table's settings (`autoingest`). */
export const AUTO_BATCH = 'autobatch' as const
export const FORM_KINDS = [...SOURCE_KINDS, AUTO_BATCH] as const
export type FormKind = (typeof FORM_KINDS)[number]
export const FORM_KIND_LABELS: Record<FormKind, string> = { ...SOURCE_LABELS, autobatch: 'Auto batch' }
export function isFormKind(value: unknown): value is FormKind {
  return typeof value === 'string' && (FORM_KINDS as readonly string[]).includes(value)
}

/** A queue given with its address: scheme://host/path (https://sqs.us-east-1.amazonaws.com/123456789012/events, sqs://…). */
export const QUEUE_ADDRESS = /^[a-z][a-z0-9+.-]*:\/\/[^\s/]+\/\S+$/i

export const AUTO_BATCH_MESSAGES = {
  queueRequired: 'Queue name is required',
  queueAddress: 'Queue name must be prefixed with its address, e.g. https://sqs.us-east-1.amazonaws.com/123456789012/',
  regex: 'Regex filter must be a valid regular expression',
  positive: 'Must be a whole number greater than 0',
} as const
