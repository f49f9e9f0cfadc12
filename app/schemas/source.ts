import { z } from 'zod'
import { setByThePage } from '~/utils/form-shape'
import { defineEditForm, keptFieldsOfForm, type FieldPlaces } from './lossless'
import {
  AUTO_BATCH_MESSAGES,
  KAFKA_OFFSETS,
  QUEUE_ADDRESS,
  SOURCE_MESSAGES,
  SOURCE_NAME_MAX,
  type SourceKind,
} from './source-values'

export {
  AUTO_BATCH,
  AUTO_BATCH_MESSAGES,
  FORM_KIND_LABELS,
  FORM_KINDS,
  isFormKind,
  isSourceKind,
  KAFKA_OFFSETS,
  QUEUE_ADDRESS,
  SOURCE_KINDS,
  SOURCE_LABELS,
  SOURCE_MESSAGES,
  SOURCE_NAME_MAX,
} from './source-values'
export type { FormKind, SourceKind } from './source-values'

const positiveWhole = z
  .number({ error: AUTO_BATCH_MESSAGES.positive })
  .refine((value) => Number.isSafeInteger(value) && value > 0, { error: AUTO_BATCH_MESSAGES.positive })
  .optional()

const autoBatchShape = {
  /** Hidden: the page sets it (the table chosen in step one). */
  table: setByThePage(),
  queue: z
    .string({ error: AUTO_BATCH_MESSAGES.queueRequired })
    .trim()
    .min(1, { error: AUTO_BATCH_MESSAGES.queueRequired })
    .regex(QUEUE_ADDRESS, { error: AUTO_BATCH_MESSAGES.queueAddress }),
  region: z.string().trim().optional(),
  pattern: z
    .string()
    .optional()
    .refine(
      (text) => {
        if (!text) return true
        try {
          new RegExp(text)
          return true
        } catch {
          return false
        }
      },
      { error: AUTO_BATCH_MESSAGES.regex },
    ),
  sourceCredential: z.string().optional(),
  bucketCredential: z.string().optional(),
  dryRun: z.boolean().optional(),
  maxMinutes: positiveWhole,
  maxRows: positiveWhole,
  maxActive: positiveWhole,
}

export const AutoBatchSchema = z.object(autoBatchShape)

export type AutoBatchForm = z.infer<typeof AutoBatchSchema>

/**
 * The edit form's schema: fields posted as the form rendered them from the stored entry (`kept`,
 * decision 073) take whatever was posted, so a stored value the form's rules refuse (a bare queue
 * name, a pattern in the engine's regex dialect) stays as stored unless the operator changes it.
 */
export function autoBatchSchema(kept: readonly string[] = []) {
  if (!kept.length) return AutoBatchSchema
  const shape: Record<string, z.ZodType> = { ...autoBatchShape }
  for (const key of kept) if (key in shape && key !== 'table') shape[key] = z.string().optional()
  return z.object(shape) as unknown as typeof AutoBatchSchema
}

/** Secrets: never sent back to the browser; blank on edit keeps the stored value. */
export const SOURCE_SECRETS = ['secretAccessKey', 'clientSecret', 'clientToken', 'accessToken'] as const

const required = (message: string) => z.string({ error: message }).trim().min(1, { error: message })
const requiredName = () =>
  required(SOURCE_MESSAGES.nameRequired).max(SOURCE_NAME_MAX, { error: SOURCE_MESSAGES.nameTooLong })
/** The form's cross-field checks run beside the field checks, not only once those pass. */
const ALWAYS = { when: () => true }
const optionalText = z.string().trim().optional()
/** A quantity above 0; its absence is reported by checkScale (so it shows beside the other errors). */
const positive = (positiveMessage: string) =>
  z.number({ error: positiveMessage }).gt(0, { error: positiveMessage }).optional()
const whole = (message: string) =>
  z.number({ error: message }).refine((value) => Number.isSafeInteger(value) && value >= 0, { error: message })

/** Name, table, transform and scale: the same on every kind. */
const commonShape = {
  /** Hidden: the page sets it (the table chosen in step one, or the source's own). */
  table: setByThePage(),
  name: requiredName(),
  description: optionalText,
  transform: required(SOURCE_MESSAGES.transformRequired),
  replicasMin: whole(SOURCE_MESSAGES.replicasInteger).optional(),
  replicasMax: whole(SOURCE_MESSAGES.replicasInteger).optional(),
  cpu: positive(SOURCE_MESSAGES.cpuPositive),
  memory: positive(SOURCE_MESSAGES.memoryPositive),
  storage: positive(SOURCE_MESSAGES.storagePositive),
}

type Scale = { replicasMin?: number; replicasMax?: number; cpu?: number; memory?: number; storage?: number }

/**
 * An edit form's fields posted as the form rendered them from the stored source (decision 072): not
 * checked again (a stored value the form's rules refuse stays as stored unless the operator changes it).
 */
type Kept = readonly string[]

/** The shape with each kept field taking whatever was posted. */
function relax<T extends Record<string, z.ZodType>>(shape: T, kept: Kept): T {
  const out: Record<string, z.ZodType> = { ...shape }
  for (const key of kept) if (key in out) out[key] = z.string().optional()
  return out as T
}

/** The refinement's context without the issues on kept fields. */
function unkept(ctx: z.RefinementCtx, kept: Kept): z.RefinementCtx {
  if (!kept.length) return ctx
  return {
    ...ctx,
    addIssue: (issue) => {
      if (typeof issue === 'string' || !kept.includes(String(issue.path?.[0]))) ctx.addIssue(issue)
    },
  } as z.RefinementCtx
}

function checkReplicas(form: Scale, ctx: z.RefinementCtx) {
  if (form.cpu === undefined) ctx.addIssue({ code: 'custom', path: ['cpu'], message: SOURCE_MESSAGES.cpuRequired })
  if (form.memory === undefined)
    ctx.addIssue({ code: 'custom', path: ['memory'], message: SOURCE_MESSAGES.memoryRequired })
  if (form.storage === undefined)
    ctx.addIssue({ code: 'custom', path: ['storage'], message: SOURCE_MESSAGES.storageRequired })
  if (form.replicasMin === undefined && form.replicasMax === undefined) {
    ctx.addIssue({ code: 'custom', path: ['replicasMin'], message: SOURCE_MESSAGES.replicasRequired })
  } else if (form.replicasMin === undefined) {
    ctx.addIssue({ code: 'custom', path: ['replicasMin'], message: SOURCE_MESSAGES.replicasRequired })
  } else if (
    typeof form.replicasMin === 'number' &&
    typeof form.replicasMax === 'number' &&
    form.replicasMin >= form.replicasMax
  ) {
    ctx.addIssue({ code: 'custom', path: ['replicasMin'], message: SOURCE_MESSAGES.replicasOrder })
  }
}

function kafkaSourceSchema(kept: Kept = []) {
  return z
    .object(
      relax(
        {
          ...commonShape,
          bootstrapServers: required(SOURCE_MESSAGES.bootstrapRequired),
          topics: required(SOURCE_MESSAGES.topicsRequired),
          readTimeout: whole(SOURCE_MESSAGES.secondsInteger).optional(),
          maxWait: whole(SOURCE_MESSAGES.millisInteger).optional(),
          offset: z.enum(KAFKA_OFFSETS).optional(),
        },
        kept,
      ),
    )
    .check(z.superRefine((form: Scale, ctx) => checkReplicas(form, unkept(ctx, kept)), ALWAYS))
}

export const KafkaSourceSchema = kafkaSourceSchema()

function kinesisSourceSchema(kept: Kept = []) {
  return z
    .object(
      relax(
        {
          ...commonShape,
          streamName: required(SOURCE_MESSAGES.streamRequired),
          region: required(SOURCE_MESSAGES.regionRequired),
          checkpointer: required(SOURCE_MESSAGES.checkpointerRequired),
          datastoreProjectId: optionalText,
          accessKeyId: optionalText,
          secretAccessKey: optionalText,
          roleArn: optionalText,
          /** Edit: a secret is stored already, so a blank secret field keeps it. */
          hasStoredSecret: z.boolean().optional(),
        },
        kept,
      ),
    )
    .check(
      z.superRefine(
        (form: Scale & { accessKeyId?: string; secretAccessKey?: string; hasStoredSecret?: boolean }, raw) => {
          const ctx = unkept(raw, kept)
          checkReplicas(form, ctx)
          const hasSecret = Boolean(form.secretAccessKey) || Boolean(form.hasStoredSecret)
          if (form.accessKeyId && !hasSecret)
            ctx.addIssue({ code: 'custom', path: ['secretAccessKey'], message: SOURCE_MESSAGES.secretWithKey })
          if (form.secretAccessKey && !form.accessKeyId)
            ctx.addIssue({ code: 'custom', path: ['accessKeyId'], message: SOURCE_MESSAGES.keyWithSecret })
        },
        ALWAYS,
      ),
    )
}

export const KinesisSourceSchema = kinesisSourceSchema()

/** Security-event feed: every field required; on edit a blank secret keeps the stored one. */
export function siemSourceSchema(isEdit: boolean, kept: Kept = []) {
  const secret = (message: string) => (isEdit ? optionalText : required(message))
  return z
    .object(
      relax(
        {
          ...commonShape,
          host: required(SOURCE_MESSAGES.hostRequired),
          configId: required(SOURCE_MESSAGES.configRequired),
          clientSecret: secret(SOURCE_MESSAGES.clientSecretRequired),
          clientToken: secret(SOURCE_MESSAGES.clientTokenRequired),
          accessToken: secret(SOURCE_MESSAGES.accessTokenRequired),
        },
        kept,
      ),
    )
    .check(z.superRefine((form: Scale, ctx) => checkReplicas(form, unkept(ctx, kept)), ALWAYS))
}

export const SiemSourceSchema = siemSourceSchema(false)

export type KafkaSourceForm = z.infer<typeof KafkaSourceSchema>
export type KinesisSourceForm = z.infer<typeof KinesisSourceSchema>
export type SiemSourceForm = z.infer<ReturnType<typeof siemSourceSchema>>

/**
 * The schema for a kind (edit relaxes the security-event feed's secrets); `kept`: fields posted as
 * rendered from the stored source, not checked again.
 */
export function sourceSchemaFor(kind: 'kafka' | 'kinesis' | 'siem', isEdit = false, kept: Kept = []) {
  if (kind === 'kafka') return kafkaSourceSchema(kept)
  if (kind === 'kinesis') return kinesisSourceSchema(kept)
  return siemSourceSchema(isEdit, kept)
}

/** "a:9092, b:9092" or one per line → ["a:9092", "b:9092"]. */
export function splitList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((part) => part.trim())
    .filter(Boolean)
}

/** Where each form field is written in the source; fields sharing a place change together. */
export const SOURCE_PLACES: FieldPlaces = {
  name: [['name']],
  description: [['description']],
  transform: [['transform']],
  replicasMin: [['k8s_deployment', 'replicas']],
  replicasMax: [['k8s_deployment', 'replicas']],
  cpu: [['k8s_deployment', 'cpu']],
  memory: [['k8s_deployment', 'memory']],
  storage: [['k8s_deployment', 'storage']],
  bootstrapServers: [['settings', 'bootstrap_servers']],
  topics: [['settings', 'topics']],
  readTimeout: [['settings', 'read_timeout']],
  maxWait: [['settings', 'max_wait']],
  offset: [['settings', 'offset']],
  streamName: [['settings', 'stream_name']],
  region: [['settings', 'region']],
  checkpointer: [['settings', 'checkpointer', 'name']],
  datastoreProjectId: [['settings', 'datastore_project_id']],
  accessKeyId: [
    ['settings', 'access_key_id'],
    ['settings', 'secret_access_key'],
  ],
  secretAccessKey: [
    ['settings', 'access_key_id'],
    ['settings', 'secret_access_key'],
  ],
  roleArn: [['settings', 'role_arn']],
  host: [['settings', 'access_details', 'host']],
  configId: [['settings', 'access_details', 'entity_id']],
  clientSecret: [['settings', 'access_details', 'client_secret']],
  clientToken: [['settings', 'access_details', 'client_token']],
  accessToken: [['settings', 'access_details', 'access_token']],
}

/** The edit form's fields posted as rendered from the stored source (browser and action alike). */
export function keptSourceFields(formData: FormData): string[] {
  return keptFieldsOfForm(formData, SOURCE_PLACES, ['description'])
}

/**
 * The source editor's lossless rule (decisions 092 and 103): the browser's check and the action's
 * parse of an edit; `context` is the source's kind. A new source is checked by `sourceSchemaFor(kind)`.
 */
export const sourceEditForm = defineEditForm<SourceKind, ReturnType<typeof sourceSchemaFor>>({
  name: 'source',
  kept: keptSourceFields,
  schemaOf: (formData, kind) => sourceSchemaFor(kind, true, keptSourceFields(formData)),
  // no CPU, as a source made by another tool may be stored (the form asks for one above 0)
  example: {
    rendered: {
      table: 'p/t',
      name: 'events',
      description: '',
      transform: 'json',
      replicasMin: '1',
      replicasMax: '',
      cpu: '',
      memory: '1',
      storage: '1',
      bootstrapServers: 'broker:9092',
      topics: 'events',
    },
    context: 'kafka',
    strict: sourceSchemaFor('kafka', true),
  },
})

/** Where each auto batch form field is written in the table's entry. */
export const AUTO_BATCH_PLACES: FieldPlaces = {
  queue: [['source']],
  region: [['source_region']],
  pattern: [['pattern']],
  sourceCredential: [['source_credential_id']],
  bucketCredential: [['bucket_credential_id']],
  dryRun: [['dry_run']],
  maxMinutes: [['max_minutes_per_partition']],
  maxRows: [['max_rows_per_partition']],
  maxActive: [['max_active_partitions']],
}

/** The auto batch edit form's fields posted as rendered from the stored entry (browser and action alike). */
export function keptAutoBatchFields(formData: FormData): string[] {
  return keptFieldsOfForm(formData, AUTO_BATCH_PLACES)
}

/** The auto batch edit form's lossless rule (decision 103): the browser's check and the action's parse. */
export const autoBatchEditForm = defineEditForm({
  name: 'auto batch entry',
  kept: keptAutoBatchFields,
  schemaOf: (formData) => autoBatchSchema(keptAutoBatchFields(formData)),
  // a bare queue name, as the cluster stores one (decision 073)
  example: {
    rendered: { table: 'p/t', queue: 'my-queue', region: '', pattern: '' },
    context: undefined,
    strict: AutoBatchSchema,
  },
})
