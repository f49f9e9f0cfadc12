import { z } from 'zod'

/** A calendar date as the date inputs send it (YYYY-MM-DD, read as a UTC day). */
const DATE = /^\d{4}-\d{2}-\d{2}$/
const isDate = (text: string) => DATE.test(text) && !Number.isNaN(Date.parse(text))

export const LOG_MESSAGES = {
  date: 'Enter a date as YYYY-MM-DD',
  order: 'The “to” date must not be before the “from” date',
  // Spec section 5: "Auth logs: from date, to date and limit required".
  fromRequired: 'From date is required',
  toRequired: 'To date is required',
  limitRequired: 'Limit is required',
  limitRange: 'Limit must be a whole number from 1 to 1000',
} as const

/** The most auth log events one request asks for (the cluster's largest page). */
export const AUTH_LOG_MAX_LIMIT = 1000

function checkOrder(value: { from?: string; to?: string }, ctx: z.RefinementCtx) {
  if (value.from && value.to && value.from > value.to)
    ctx.addIssue({ code: 'custom', path: ['to'], message: LOG_MESSAGES.order })
}

/** The audit trail's filters (a GET form): user, action, text, and a date range; all optional. */
export const AuditFilterSchema = z
  .object({
    user: z.string().trim().optional(),
    action: z.string().trim().optional(),
    search: z.string().trim().optional(),
    from: z.string().refine(isDate, { error: LOG_MESSAGES.date }).optional(),
    to: z.string().refine(isDate, { error: LOG_MESSAGES.date }).optional(),
  })
  .superRefine(checkOrder)

export type AuditFilter = z.infer<typeof AuditFilterSchema>

/** The auth logs' filters (a GET form): from, to and limit, all three required. */
export const AuthLogFilterSchema = z
  .object({
    from: z.string({ error: LOG_MESSAGES.fromRequired }).refine(isDate, { error: LOG_MESSAGES.date }),
    to: z.string({ error: LOG_MESSAGES.toRequired }).refine(isDate, { error: LOG_MESSAGES.date }),
    limit: z
      .number({ error: (issue) => (issue.input === undefined ? LOG_MESSAGES.limitRequired : LOG_MESSAGES.limitRange) })
      .refine((limit) => Number.isInteger(limit) && limit >= 1 && limit <= AUTH_LOG_MAX_LIMIT, {
        error: LOG_MESSAGES.limitRange,
      }),
  })
  .superRefine(checkOrder)

export type AuthLogFilter = z.infer<typeof AuthLogFilterSchema>

/** Today and `days` before it as YYYY-MM-DD (UTC), for a filter's first values. */
export function recentDays(days: number, now = new Date()): { from: string; to: string } {
  const to = now.toISOString().slice(0, 10)
  const from = new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10)
  return { from, to }
}
