import type { TableTransformOption } from '~/api/transforms.server'

/**
 * The transform a form selects when its table changes: the one already picked when it is a transform
 * of that table (the user picked both before the page hydrated), else the table's default, else its
 * first ('' when the table has none).
 */
export function transformForTable(tables: TableTransformOption[], table: string, current: string): string {
  const entry = tables.find((item) => item.value === table)
  if (!entry) return ''
  if (entry.transforms.some((item) => item.value === current)) return current
  return (entry.transforms.find((item) => item.isDefault) ?? entry.transforms[0])?.value ?? ''
}
