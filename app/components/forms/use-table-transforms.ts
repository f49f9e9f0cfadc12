import { useEffect, useRef, useState } from 'react'
import { withBase } from '~/utils/base-path'
import { DEFAULT_TRANSFORM, type TableTransformOption, type TransformChoice } from '~/utils/table-transform'

/**
 * The tables of a form that picks a table and one of its transforms, with the transforms read since
 * (decision 085): the page carries the transforms of the table it preselects only; `readTransforms`
 * asks /resources/table-transforms for a table picked later (with scripts), once. Until they come,
 * and if the read fails, the table offers its default transform (`project.table:*`). `onRead(table)`
 * runs after the options with the table's transforms have rendered (the form can then select one).
 */
export function useTableTransforms(tables: TableTransformOption[], onRead: (table: string) => void) {
  const [read, setRead] = useState<Record<string, TransformChoice[]>>({})
  const [justRead, setJustRead] = useState<string | null>(null)
  const pending = useRef(new Set<string>())
  const options = tables.map((entry) =>
    entry.transforms === null && read[entry.value] ? { ...entry, transforms: read[entry.value]! } : entry,
  )
  useEffect(() => {
    if (justRead === null) return
    setJustRead(null)
    onRead(justRead)
  }, [justRead, onRead])
  const readTransforms = (table: string) => {
    const entry = tables.find((item) => item.value === table)
    if (!entry || entry.transforms !== null || read[table] || pending.current.has(table)) return
    pending.current.add(table)
    fetch(withBase(`/resources/table-transforms?table=${encodeURIComponent(table)}`))
      .then((response) => (response.ok ? response.json() : null))
      .then((answer: { transforms: TransformChoice[] } | null) => {
        if (!answer) return
        setRead((before) => ({ ...before, [table]: answer.transforms }))
        setJustRead(table)
      })
      .catch(() => {
        // the table's default transform stays offered
      })
      .finally(() => pending.current.delete(table))
  }
  return { options, readTransforms }
}

/** Whether `value` is `table`'s default-transform option (its transforms not read yet). */
export const isDefaultChoice = (table: string, value: string) => value === `${table}:${DEFAULT_TRANSFORM}`
