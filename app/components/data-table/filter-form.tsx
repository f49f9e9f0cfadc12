import { chakra } from '@chakra-ui/react'
import { HStack } from '~/components/ui/stack'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { Form } from '@remix-run/react'

/**
 * A GET form that puts a name filter in the URL (`?q=`), keeping the page size and going back to
 * page 1. Works without scripts; with them Remix navigates without a full reload.
 */
export function FilterForm({
  label,
  value,
  keep = {},
  name = 'q',
}: {
  label: string
  value: string
  /** Other URL parameters the filter must not drop (e.g. pageSize). */
  keep?: Record<string, string | number | undefined>
  name?: string
}) {
  const id = `filter-${name}`
  return (
    <Form method="get" role="search">
      {Object.entries(keep).map(([key, kept]) =>
        kept === undefined || kept === '' ? null : <input key={key} type="hidden" name={key} value={kept} />,
      )}
      <chakra.label htmlFor={id} display="block" fontSize="sm" fontWeight="medium" mb="1">
        {label}
      </chakra.label>
      <HStack gap="2">
        <Input id={id} type="search" name={name} defaultValue={value} key={value} maxW="sm" bg="bg" size="sm" />
        <Button type="submit" size="sm" variant="outline">
          Filter
        </Button>
      </HStack>
    </Form>
  )
}
