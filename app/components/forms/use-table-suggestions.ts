import { useEffect, useRef, useState, type ChangeEvent } from 'react'
import { withBase } from '~/utils/base-path'

/** A table a picker offers (the shape of table-search.server's TableChoice). */
export type PickerChoice = { uuid: string; projectId: string; project: string; name: string }
export type PickerSearch = { q: string; choices: PickerChoice[]; hasMore: boolean; selected: PickerChoice | null }

/**
 * The tables a picker offers as the user types (with scripts; issue 33): `found` starts as the
 * search the page answered (and follows it when the page answers another), then follows the
 * typing through /resources/table-search (200 ms after the last key; an older answer is dropped).
 * `onType` goes on the search field's onChange. `kind`: `raw` leaves out summary tables, `scope`
 * keeps the console's store (a security scope).
 */
export function useTableSuggestions(search: Pick<PickerSearch, 'q' | 'choices' | 'hasMore'>, kind?: 'raw' | 'scope') {
  const [found, setFound] = useState({ q: search.q, choices: search.choices, hasMore: search.hasMore })
  const [routeSearch, setRouteSearch] = useState(search)
  if (routeSearch !== search) {
    setRouteSearch(search)
    setFound({ q: search.q, choices: search.choices, hasMore: search.hasMore })
  }
  const pending = useRef<AbortController | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  useEffect(
    () => () => {
      pending.current?.abort()
      if (timer.current) clearTimeout(timer.current)
    },
    [],
  )
  const onType = (event: ChangeEvent<HTMLInputElement>) => {
    const q = event.currentTarget.value
    if (timer.current) clearTimeout(timer.current)
    timer.current = setTimeout(() => {
      pending.current?.abort()
      const controller = (pending.current = new AbortController())
      fetch(withBase(`/resources/table-search?q=${encodeURIComponent(q)}${kind ? `&kind=${kind}` : ''}`), {
        signal: controller.signal,
      })
        .then((response) => (response.ok ? response.json() : null))
        .then((answer: { choices: PickerChoice[]; hasMore: boolean } | null) => {
          if (answer) setFound({ q, choices: answer.choices, hasMore: answer.hasMore })
        })
        .catch(() => {
          // the list stays as it was; "Find" still searches
        })
    }, 200)
  }
  return { found, onType }
}
