import { Box } from '~/components/ui/box'
import { HStack } from '~/components/ui/stack'
import { Button } from '~/components/ui/button'
import { useEffect, useRef, useState, type ChangeEvent } from 'react'
import { Form as RemixForm } from '@remix-run/react'
import { withBase } from '~/utils/base-path'

/** A table a picker offers (the shape of table-search.server's TableChoice). */
export type PickerChoice = { uuid: string; projectId: string; project: string; name: string }
export type PickerSearch = { q: string; choices: PickerChoice[]; hasMore: boolean; selected: PickerChoice | null }

/**
 * A table picker for an org of any size (issue 33): a short `<select>` of what a search finds, and
 * the search, instead of every table of the org (the select first, so a URL reads `table_id=…` first). Without
 * scripts "Find" sends the form as a GET (the
 * search and every field stay in the URL, the page lists what it found); with scripts the list
 * follows the typing (/resources/table-search). The table chosen is kept whether or not the search
 * lists it. `optionValue` gives an option's value (the table id by default).
 */
export function TableSearchField({
  search,
  idName,
  qName,
  label = 'Table',
  idPrefix = 'table',
  optionValue = (choice) => choice.uuid,
  value,
  onChoose,
  isRequired,
  isInvalid,
  describedBy,
  kind,
}: {
  search: PickerSearch
  idName: string
  qName: string
  label?: string
  idPrefix?: string
  optionValue?: (choice: PickerChoice) => string
  /** The chosen value (`optionValue` of a choice); the search's `selected` when not given. */
  value?: string
  onChoose?: (select: HTMLSelectElement) => void
  isRequired?: boolean
  isInvalid?: boolean
  describedBy?: string
  /** `raw`: the suggestions leave out summary tables (as the page's own search does). */
  kind?: 'raw'
}) {
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
  const searchFor = (q: string) => {
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
  const onType = (event: ChangeEvent<HTMLInputElement>) => searchFor(event.currentTarget.value)
  // a search typed before the page hydrated is what the box holds then: the list follows it
  // (React hears no change for it: the box already held the text when React took the page)
  const searchRef = useRef<HTMLInputElement>(null)
  useEffect(() => {
    const typed = searchRef.current?.value ?? ''
    if (typed !== search.q) searchFor(typed)
    // only on mount: later typing is heard as it happens
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  const chosen = value ?? (search.selected ? optionValue(search.selected) : '')
  const options = [...found.choices]
  const kept = search.selected && !options.some((choice) => optionValue(choice) === optionValue(search.selected!))
  if (kept) options.unshift(search.selected!)
  // The table the user picked in this page (before hydration too: useEarlyChanges replays its
  // change), kept when a search redraws the list that still offers it (issue 54, point 10): the
  // select is drawn anew for each search, and drawn from `chosen` it dropped the pick.
  const picked = useRef<{ chosen: string; value: string } | null>(null)
  const pick = picked.current?.chosen === chosen ? picked.current.value : chosen
  const shownValue = pick === '' || options.some((choice) => optionValue(choice) === pick) ? pick : chosen
  const status = found.choices.length
    ? found.hasMore
      ? `The first ${found.choices.length} tables${found.q ? ` matching “${found.q}”` : ''}: narrow the search to see others.`
      : `${found.choices.length} ${found.choices.length === 1 ? 'table' : 'tables'}${found.q ? ` matching “${found.q}”` : ''}.`
    : found.q
      ? `No table matches “${found.q}”.`
      : 'No tables yet.'
  return (
    <HStack gap="2" align="end" wrap="wrap" className="cc-find">
      <Box minW="16rem">
        <label htmlFor={`${idPrefix}-picker`}>{label}</label>
        <select
          id={`${idPrefix}-picker`}
          name={idName}
          defaultValue={shownValue}
          key={`${chosen}:${found.q}`}
          required={isRequired}
          aria-invalid={isInvalid || undefined}
          aria-describedby={[`${idPrefix}-search-status`, describedBy].filter(Boolean).join(' ')}
          onChange={(event) => {
            picked.current = { chosen, value: event.currentTarget.value }
            onChoose?.(event.currentTarget)
          }}
        >
          <option value="">{options.length ? 'Pick a table…' : 'No table to pick'}</option>
          {options.map((choice) => (
            <option key={choice.uuid} value={optionValue(choice)}>
              {choice.project}.{choice.name}
            </option>
          ))}
        </select>
      </Box>
      <Box minW="12rem">
        <label htmlFor={`${idPrefix}-search`}>Find a table</label>
        <input
          id={`${idPrefix}-search`}
          type="search"
          name={qName}
          defaultValue={search.q}
          placeholder="project.table or part of a name"
          autoComplete="off"
          aria-describedby={`${idPrefix}-search-status`}
          ref={searchRef}
          onChange={onType}
        />
      </Box>
      <Button type="submit" formMethod="get" formNoValidate variant="outline" size="sm" h="9">
        Find
      </Button>
      <Box id={`${idPrefix}-search-status`} role="status" fontSize="xs" color="fg.muted" flexBasis="100%">
        {status}
      </Box>
    </HStack>
  )
}

/**
 * A search that narrows the tables a form beside it offers (issue 33): a GET form of its own (never
 * inside the other form) with the search, and the URL's other parameters kept as hidden fields
 * (`keep`), so the form's table list is what the search found; the status line says how many.
 */
export function TableSearchForm({
  search,
  keep = {},
  qName = 'table_q',
  idPrefix = 'table-search',
}: {
  search: Pick<PickerSearch, 'q' | 'choices' | 'hasMore'>
  keep?: Record<string, string>
  qName?: string
  idPrefix?: string
}) {
  const count = search.choices.length
  const status = count
    ? search.hasMore
      ? `The form offers the first ${count} tables${search.q ? ` matching “${search.q}”` : ''}: search to find another.`
      : `The form offers ${count} ${count === 1 ? 'table' : 'tables'}${search.q ? ` matching “${search.q}”` : ''}.`
    : search.q
      ? `No table matches “${search.q}”.`
      : 'No tables yet.'
  return (
    <RemixForm method="get" role="search" aria-label="Find a table">
      {Object.entries(keep).map(([name, value]) =>
        value ? <input key={name} type="hidden" name={name} value={value} /> : null,
      )}
      <HStack gap="2" align="end" wrap="wrap" className="cc-find">
        <Box minW="16rem">
          <label htmlFor={`${idPrefix}-q`}>Find a table</label>
          <input
            id={`${idPrefix}-q`}
            type="search"
            name={qName}
            defaultValue={search.q}
            placeholder="project.table or part of a name"
            aria-describedby={`${idPrefix}-status`}
          />
        </Box>
        <Button type="submit" variant="outline" size="sm" h="9">
          Find
        </Button>
        <Box id={`${idPrefix}-status`} role="status" fontSize="xs" color="fg.muted" flexBasis="100%">
          {status}
        </Box>
      </HStack>
    </RemixForm>
  )
}
