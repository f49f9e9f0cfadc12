import { z } from 'zod'
import { transformOf } from './job'
import { defineEditForm, keptFieldsOfForm, type FieldPlaces } from './lossless'
import { kindNeedsTable, kindOfService, POOL_KINDS } from './pool-values'

/*
 * Resource pools (spec sections 3 and 5): what a pool form accepts, in the spec's words, and the
 * sizes both sides read (Kubernetes quantities such as "2Gi" and "500m").
 */

export {
  KIND_LABELS,
  KIND_PATHS,
  kindNeedsTable,
  kindOfPool,
  kindOfService,
  POOL_KINDS,
  SERVICES,
  type PoolKind,
} from './pool-values'

// ------------------------------------------------------------------------------------------------
// Sizes

const BINARY = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50 } as const
const DECIMAL = { k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15 } as const
const SIZE_PATTERN = /^(\d+(?:\.\d+)?)\s*(Ki|Mi|Gi|Ti|Pi|k|K|M|G|T|P)?$/
/** A size typed in the form: a number and a unit (a bare number would be bytes, which nobody means). */
const SIZE_INPUT_PATTERN = /^(\d+(?:\.\d+)?)\s*(Ki|Mi|Gi|Ti|Pi|k|K|M|G|T|P)$/
const CPU_PATTERN = /^(\d+(?:\.\d+)?)(m)?$/

/** Returns a memory or storage quantity ("2Gi", "512Mi", "1G", 1073741824) in bytes, or null when it is not one. */
export function parseSize(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : null
  if (typeof value !== 'string') return null
  const match = SIZE_PATTERN.exec(value.trim())
  if (!match) return null
  const unit = match[2] as keyof typeof BINARY | keyof typeof DECIMAL | undefined
  const factor = unit ? ((BINARY as Record<string, number>)[unit] ?? (DECIMAL as Record<string, number>)[unit]!) : 1
  return Number(match[1]) * factor
}

/** Returns a CPU quantity ("2", "0.5", "500m", 1) in cores, or null when it is not one. */
export function parseCpu(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : null
  if (typeof value !== 'string') return null
  const match = CPU_PATTERN.exec(value.trim())
  if (!match) return null
  return match[2] ? Number(match[1]) / 1000 : Number(match[1])
}

export type Replicas = { min: number; max: number } | null

/** Returns the cluster's replicas ("3", 3, "1-5") as a range (min = max for a fixed count), or null when it is not one. */
export function parseReplicas(value: unknown): Replicas {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? { min: value, max: value } : null
  if (typeof value !== 'string') return null
  const text = value.trim()
  if (/^\d+$/.test(text)) return { min: Number(text), max: Number(text) }
  const range = /^(\d+)\s*-\s*(\d+)$/.exec(text)
  return range ? { min: Number(range[1]), max: Number(range[2]) } : null
}

// ------------------------------------------------------------------------------------------------
// The forms

/** Pool names: under 64 symbols (spec sections 5 and 9), and usable as a Kubernetes name and in `/pool/{name}/ingest/event`. */
export const POOL_NAME_MAX = 63
export const POOL_NAME_PATTERN = /^[a-z]([a-z0-9-]*[a-z0-9])?$/

export const POOL_MESSAGES = {
  typeRequired: 'Type is required',
  serviceRequired: 'Service is required',
  serviceOfType: 'Pick a service of the selected type',
  tableRequired: 'Table is required',
  transformRequired: 'Transform is required',
  transformOfTable: 'Pick a transform of the selected table',
  nameRequired: 'Name is required',
  nameTooLong: 'Name must be under 64 symbols',
  nameCharacters:
    'Name must start with a lowercase letter, contain only lowercase letters, digits and dashes, and not end with a dash',
  replicasWhole: 'Replicas must be a whole number, 0 or more',
  minReplicasWhole: 'Min replicas must be a whole number, 0 or more',
  maxReplicasWhole: 'Max replicas must be a whole number, 1 or more',
  minRequired: 'Min replicas is required when max replicas is set',
  maxRequired: 'Max replicas is required when min replicas is set',
  minBelowMax: 'Min replicas must be below max',
  fixedOrRange: 'Set either a fixed number of replicas or a min and max, not both',
  cpuPositive: 'CPU must be a number of cores greater than 0, such as 2, 0.5 or 500m',
  memoryPositive: 'Memory must be a size greater than 0, such as 2Gi or 512Mi',
  storagePositive: 'Ephemeral storage must be a size greater than 0, such as 10Gi or 512Mi',
  shardsWhole: 'Shards must be a whole number, 1 or more',
} as const

const wholeNumber = (message: string, min = 0) =>
  z
    .number({ error: message })
    // A refine, not .int(): zod's int check aborts the object's later checks (the replicas rules).
    .refine((value) => Number.isSafeInteger(value) && value >= min, { error: message })
    .optional()

const size = (message: string) =>
  z
    .string()
    .trim()
    .refine((text) => SIZE_INPUT_PATTERN.test(text) && (parseSize(text) ?? 0) > 0, { error: message })
    .optional()

/** The fields every pool form has: how big it is, its description and whether it is its service's default. */
const scaleFields = {
  description: z.string().trim().optional(),
  replicas: wholeNumber(POOL_MESSAGES.replicasWhole),
  minReplicas: wholeNumber(POOL_MESSAGES.minReplicasWhole),
  maxReplicas: wholeNumber(POOL_MESSAGES.maxReplicasWhole, 1),
  cpu: z
    .string()
    .trim()
    .refine((text) => (parseCpu(text) ?? 0) > 0, { error: POOL_MESSAGES.cpuPositive })
    .optional(),
  memory: size(POOL_MESSAGES.memoryPositive),
  storage: size(POOL_MESSAGES.storagePositive),
  shards: wholeNumber(POOL_MESSAGES.shardsWhole, 1),
  isDefault: z.boolean().optional(),
}

type ScaleInput = { replicas?: unknown; minReplicas?: unknown; maxReplicas?: unknown }

const isWhole = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0

/**
 * The replicas rules (spec section 5): min below max, each required if the other is present, and
 * a fixed count only without a range. Each runs beside the other fields' errors (`when`), once the
 * numbers involved are numbers.
 */
function withReplicaRules<T extends z.ZodType<ScaleInput & Record<string, unknown>>>(schema: T) {
  const input = (value: unknown) => (value ?? {}) as ScaleInput
  return schema
    .refine((value) => value.maxReplicas === undefined || value.minReplicas !== undefined, {
      path: ['minReplicas'],
      error: POOL_MESSAGES.minRequired,
      when: ({ value }) => isWhole(input(value).maxReplicas) && input(value).minReplicas === undefined,
    })
    .refine((value) => value.minReplicas === undefined || value.maxReplicas !== undefined, {
      path: ['maxReplicas'],
      error: POOL_MESSAGES.maxRequired,
      when: ({ value }) => isWhole(input(value).minReplicas) && input(value).maxReplicas === undefined,
    })
    .refine(
      (value) => !isWhole(value.minReplicas) || !isWhole(value.maxReplicas) || value.minReplicas < value.maxReplicas,
      {
        path: ['minReplicas'],
        error: POOL_MESSAGES.minBelowMax,
        when: ({ value }) => isWhole(input(value).minReplicas) && isWhole(input(value).maxReplicas),
      },
    )
    .refine(
      (value) => value.replicas === undefined || (value.minReplicas === undefined && value.maxReplicas === undefined),
      {
        path: ['replicas'],
        error: POOL_MESSAGES.fixedOrRange,
        when: ({ value }) => {
          const form = input(value)
          return isWhole(form.replicas) && (form.minReplicas !== undefined || form.maxReplicas !== undefined)
        },
      },
    )
}

/** Changing a pool: its size, description and default flag (name, type, service, table and transform stay). */
export const PoolEditFormSchema = withReplicaRules(z.object(scaleFields))

/**
 * The edit schema with `kept` fields (posted as rendered from the stored pool, decision 072) taking
 * whatever was posted: a stored value the form's rules refuse stays unless the operator changes it.
 */
export function poolEditFormSchema(kept: readonly string[] = []) {
  if (!kept.length) return PoolEditFormSchema
  const shape: Record<string, z.ZodType> = { ...scaleFields }
  for (const key of kept) if (key in shape) shape[key] = z.string().optional()
  return withReplicaRules(z.object(shape as typeof scaleFields)) as typeof PoolEditFormSchema
}
export type PoolEditForm = z.infer<typeof PoolEditFormSchema>

/** Where each edit field is written in the pool; the three replicas fields are one value. */
export const POOL_PLACES: FieldPlaces = {
  description: [['description']],
  replicas: [['settings', 'k8s_deployment', 'replicas']],
  minReplicas: [['settings', 'k8s_deployment', 'replicas']],
  maxReplicas: [['settings', 'k8s_deployment', 'replicas']],
  cpu: [['settings', 'k8s_deployment', 'cpu']],
  memory: [['settings', 'k8s_deployment', 'memory']],
  storage: [['settings', 'k8s_deployment', 'storage']],
  shards: [['settings', 'k8s_deployment', 'shards']],
  isDefault: [['settings', 'is_default']],
}

/** The pool edit form's fields posted as rendered from the stored pool (browser and action alike). */
export function keptPoolFields(formData: FormData): string[] {
  return keptFieldsOfForm(formData, POOL_PLACES, ['description'])
}

/** The pool edit form's lossless rule (decision 103): the browser's check and the action's parse. */
export const poolEditForm = defineEditForm({
  name: 'pool',
  kept: keptPoolFields,
  schemaOf: (formData) => poolEditFormSchema(keptPoolFields(formData)),
  // the cluster does not check shards, and takes a memory in millibytes ("m"): the form asks for 1 or more, in bytes
  example: {
    rendered: { description: '', replicas: '1', cpu: '1', memory: '1500m', storage: '1Gi', shards: '0' },
    context: undefined,
    strict: PoolEditFormSchema,
  },
})

type CreateInput = { type?: unknown; service?: unknown; table?: unknown; transform?: unknown }

/** Creating a pool: its type (kind), service, name, for ingest its table and transform, and its size. */
export const PoolFormSchema = withReplicaRules(
  z.object({
    type: z.enum(POOL_KINDS, { error: POOL_MESSAGES.typeRequired }),
    service: z.string({ error: POOL_MESSAGES.serviceRequired }).trim(),
    name: z
      .string({ error: POOL_MESSAGES.nameRequired })
      .trim()
      .min(1, { error: POOL_MESSAGES.nameRequired })
      .max(POOL_NAME_MAX, { error: POOL_MESSAGES.nameTooLong })
      .regex(POOL_NAME_PATTERN, { error: POOL_MESSAGES.nameCharacters }),
    table: z.string().trim().optional(),
    transform: z.string().trim().optional(),
    ...scaleFields,
  }),
)
  .refine((value) => kindOfService(value.service) === value.type, {
    path: ['service'],
    error: POOL_MESSAGES.serviceOfType,
    when: ({ value }) => {
      const form = (value ?? {}) as CreateInput
      return (
        typeof form.service === 'string' &&
        typeof form.type === 'string' &&
        (POOL_KINDS as readonly string[]).includes(form.type) &&
        kindOfService(form.service) !== form.type
      )
    },
  })
  .refine((value) => !kindNeedsTable(value.type) || Boolean(value.table), {
    path: ['table'],
    error: POOL_MESSAGES.tableRequired,
    when: ({ value }) => {
      const form = (value ?? {}) as CreateInput
      return kindNeedsTable(form.type as string) && !form.table
    },
  })
  .refine((value) => !kindNeedsTable(value.type) || Boolean(value.transform), {
    path: ['transform'],
    error: POOL_MESSAGES.transformRequired,
    when: ({ value }) => {
      const form = (value ?? {}) as CreateInput
      return kindNeedsTable(form.type as string) && !form.transform
    },
  })
  .refine(
    (value) =>
      !kindNeedsTable(value.type) ||
      !value.table ||
      !value.transform ||
      transformOf(value.table, value.transform) !== null,
    {
      path: ['transform'],
      error: POOL_MESSAGES.transformOfTable,
      when: ({ value }) => {
        const form = (value ?? {}) as CreateInput
        return (
          kindNeedsTable(form.type as string) &&
          typeof form.table === 'string' &&
          typeof form.transform === 'string' &&
          transformOf(form.table, form.transform) === null
        )
      },
    },
  )
export type PoolForm = z.infer<typeof PoolFormSchema>

/** The cluster's `replicas` for what the form says: "min-max", a count, or undefined for the default. */
export function replicasValue(
  form: Pick<PoolEditForm, 'replicas' | 'minReplicas' | 'maxReplicas'>,
): string | undefined {
  if (form.minReplicas !== undefined && form.maxReplicas !== undefined) return `${form.minReplicas}-${form.maxReplicas}`
  if (form.replicas !== undefined) return String(form.replicas)
  return undefined
}
