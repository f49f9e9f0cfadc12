import { isObject } from '~/schemas/lossless'

/** `over` laid onto `base`, object by object (lists and scalars of `over` win). */
export function mergeDeep<T extends Record<string, unknown>>(base: T, over: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...base }
  for (const [key, value] of Object.entries(over)) {
    out[key] = isObject(out[key]) && isObject(value) ? mergeDeep(out[key] as Record<string, unknown>, value) : value
  }
  return out as T
}
