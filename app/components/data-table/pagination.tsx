import { chakra } from '@chakra-ui/react'
import { Text } from '~/components/ui/box'
import { HStack } from '~/components/ui/stack'
import { Button } from '~/components/ui/button'
import { NativeSelect } from '~/components/ui/native-select'
import { Form, Link, useSubmit } from '@remix-run/react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { PAGE_SIZES } from './paging'

type PaginationProps = {
  page: number
  /** null: not known, and there is at least one more page (a list read without counting it all). */
  pageCount: number | null
  pageSize: number
  /** null: not known, and more rows follow this page's ("Showing 1–25 of more than 25"). */
  total: number | null
  /** The current URL's search params; page links and the size form keep every other one. */
  searchParams: URLSearchParams
  noun?: string
}

function withParams(searchParams: URLSearchParams, changes: Record<string, string | number>): string {
  const next = new URLSearchParams(searchParams)
  for (const [key, value] of Object.entries(changes)) next.set(key, String(value))
  return `?${next}`
}

/**
 * Previous/next links, "Showing a–b of n" and the "Rows per page" control, all in the URL.
 * Without scripts the size is applied with its button; with scripts it applies on change.
 * Nothing for an empty list (its table shows the empty state).
 */
export function Pagination({ page, pageCount, pageSize, total, searchParams, noun = 'rows' }: PaginationProps) {
  const submit = useSubmit()
  const isHydrated = useHydrated()
  if (total === 0) return null
  const first = (page - 1) * pageSize + 1
  const last = total === null ? page * pageSize : Math.min(total, page * pageSize)
  const hasNext = pageCount === null || page < pageCount
  const kept = [...searchParams.entries()].filter(([key]) => key !== 'page' && key !== 'pageSize')
  return (
    <HStack as="nav" aria-label="Pagination" justify="space-between" wrap="wrap" gap="3" mt="3">
      <Form method="get" onChange={(event) => isHydrated && submit(event.currentTarget)}>
        {kept.map(([key, value]) => (
          <input key={key} type="hidden" name={key} value={value} />
        ))}
        <input type="hidden" name="page" value="1" />
        <HStack gap="2">
          <chakra.label htmlFor="rows-per-page" fontSize="sm" whiteSpace="nowrap">
            Rows per page
          </chakra.label>
          <NativeSelect.Root size="sm" width="20">
            <NativeSelect.Field id="rows-per-page" name="pageSize" defaultValue={pageSize} key={pageSize} bg="bg">
              {PAGE_SIZES.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <Button type="submit" size="xs" variant="outline">
            Apply
          </Button>
        </HStack>
      </Form>
      <Text fontSize="sm" color="fg.muted" aria-live="polite">
        Showing {first}–{last} of {total === null ? `more than ${last}` : total} {noun}
      </Text>
      <HStack gap="2">
        {page > 1 ? (
          <Button asChild size="sm" variant="outline">
            <Link to={withParams(searchParams, { page: page - 1 })} rel="prev">
              Previous page
            </Link>
          </Button>
        ) : null}
        <Text fontSize="sm">{pageCount === null ? `Page ${page}` : `Page ${page} of ${pageCount}`}</Text>
        {hasNext ? (
          <Button asChild size="sm" variant="outline">
            <Link to={withParams(searchParams, { page: page + 1 })} rel="next">
              Next page
            </Link>
          </Button>
        ) : null}
      </HStack>
    </HStack>
  )
}
