/** A transform as a form option: its value is `project.table:name`. */
export type TransformChoice = { value: string; name: string; type: string; isDefault: boolean }

/**
 * A table as a form option (`project.table`) with its transforms (`project.table:name`), for forms
 * that pick both; `transforms` is null when they were not read (decision 085): the form then offers
 * the table's default transform (`project.table:*`) and, with scripts, reads the list when the table
 * is picked (/resources/table-transforms).
 */
export type TableTransformOption = {
  value: string
  transforms: TransformChoice[] | null
}

/**
 * The transform name of a table's "default transform" option (`project.table:*`), offered for a
 * table whose transforms were not read (decision 085): the action reads the table's default when
 * the form is sent. No transform is named `*` (names are letters, digits, `_` and `-`).
 */
export const DEFAULT_TRANSFORM = '*'

/** A table's transform options as a form lists them: its own, or its default's when they were not read. */
export function transformChoicesOf(entry: TableTransformOption): { value: string; label: string }[] {
  if (entry.transforms === null)
    return [{ value: `${entry.value}:${DEFAULT_TRANSFORM}`, label: 'Its default transform' }]
  return entry.transforms.map((transform) => ({
    value: transform.value,
    label: `${transform.name}${transform.type ? ` (${transform.type})` : ''}${transform.isDefault ? ' · default' : ''}`,
  }))
}

/**
 * A table's default transform, else its first ('' when it has none or there is no table); for a
 * table whose transforms were not read, its default's option (`project.table:*`).
 */
export function defaultTransformOf(entry: TableTransformOption | undefined): string {
  if (entry && entry.transforms === null) return `${entry.value}:${DEFAULT_TRANSFORM}`
  return (entry?.transforms?.find((item) => item.isDefault) ?? entry?.transforms?.[0])?.value ?? ''
}

/**
 * The transform a form selects when its table changes: the one already picked when it is a transform
 * of that table (the user picked both before the page hydrated), else the table's default, else its
 * first ('' when the table has none).
 */
export function transformForTable(tables: TableTransformOption[], table: string, current: string): string {
  const entry = tables.find((item) => item.value === table)
  if (entry && transformChoicesOf(entry).some((item) => item.value === current)) return current
  return defaultTransformOf(entry)
}
