import type { TableTransformOption } from '~/api/transforms.server'

/** A table's default transform, else its first ('' when it has none or there is no table). */
export function defaultTransformOf(entry: TableTransformOption | undefined): string {
  return (entry?.transforms.find((item) => item.isDefault) ?? entry?.transforms[0])?.value ?? ''
}

/**
 * The transform a form selects when its table changes: the one already picked when it is a transform
 * of that table (the user picked both before the page hydrated), else the table's default, else its
 * first ('' when the table has none).
 */
export function transformForTable(tables: TableTransformOption[], table: string, current: string): string {
  const entry = tables.find((item) => item.value === table)
  if (entry?.transforms.some((item) => item.value === current)) return current
  return defaultTransformOf(entry)
}
