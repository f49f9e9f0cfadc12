import { z } from 'zod'
import {
  CUSTOM_RANGE,
  CUSTOM_STEP_SECONDS,
  DEFAULT_RANGE,
  MAX_CUSTOM_MS,
  parseUtcInput,
  RANGE_MESSAGES,
  type RangeValue,
} from './__range'

/**
 * System Health's filter schemas (the loaders parse every request with them; the filter forms load
 * them after hydration and validate as you type, decision 077).
 */

const text = (max: number) => z.string().trim().max(max, `At most ${max} characters`).optional()

/** The range fields both tabs share: `range`, and `from`/`to` when it is custom. */
export const RangeFields = {
  range: z.enum(['15m', '1h', '6h', CUSTOM_RANGE]).catch(DEFAULT_RANGE),
  from: z.string().trim().optional(),
  to: z.string().trim().optional(),
}

function checkRange(value: RangeValue, ctx: z.RefinementCtx) {
  if (value.range !== CUSTOM_RANGE) return
  const from = parseUtcInput(value.from)
  const to = parseUtcInput(value.to)
  if (!value.from) ctx.addIssue({ code: 'custom', path: ['from'], message: RANGE_MESSAGES.fromRequired })
  else if (Number.isNaN(from)) ctx.addIssue({ code: 'custom', path: ['from'], message: RANGE_MESSAGES.invalid })
  if (!value.to) ctx.addIssue({ code: 'custom', path: ['to'], message: RANGE_MESSAGES.toRequired })
  else if (Number.isNaN(to)) ctx.addIssue({ code: 'custom', path: ['to'], message: RANGE_MESSAGES.invalid })
  if (Number.isNaN(from) || Number.isNaN(to)) return
  if (to <= from) ctx.addIssue({ code: 'custom', path: ['to'], message: RANGE_MESSAGES.order })
  else if (to - from > MAX_CUSTOM_MS) ctx.addIssue({ code: 'custom', path: ['to'], message: RANGE_MESSAGES.tooLong })
  else if (to - from < CUSTOM_STEP_SECONDS * 1000)
    ctx.addIssue({ code: 'custom', path: ['to'], message: RANGE_MESSAGES.tooShort })
}

/** The Counts tab's filters (spec section 3): the range, one service and one pool. */
export const CountsFilterSchema = z
  .object({ ...RangeFields, service: text(100), pool: text(100) })
  .superRefine(checkRange)

/** The Logs tab's filters (spec section 3: service, log level, timerange, pool, component, container, search). */
export const LogsFilterSchema = z
  .object({
    ...RangeFields,
    service: text(100),
    level: text(40),
    pool: text(100),
    component: text(100),
    container: text(200),
    q: text(500),
  })
  .superRefine(checkRange)
