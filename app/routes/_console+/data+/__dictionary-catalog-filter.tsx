import { chakra } from '@chakra-ui/react'
import { HStack, Stack } from '~/components/ui/stack'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { Form } from '@remix-run/react'
import { FormSelect } from '~/components/forms/form-select'

/*
 * The filter above the Dictionaries, Functions and Files lists (one helper for the three, named
 * with the dictionaries' prefix): a GET form with a project select and a name box, so the filter
 * and the page live in the URL (`?project=&q=&pageSize=`) and work without scripts.
 */

export function CatalogFilter({
  projects,
  project,
  q,
  pageSize,
  nameLabel,
}: {
  projects: { uuid: string; name: string }[]
  project: string
  q: string
  pageSize?: string | null
  nameLabel: string
}) {
  return (
    <Form method="get" role="search" aria-label="Filter">
      {pageSize ? <input type="hidden" name="pageSize" value={pageSize} /> : null}
      <HStack gap="3" alignItems="flex-end" flexWrap="wrap">
        <Stack gap="1">
          <chakra.label htmlFor="filter-project" fontSize="sm" fontWeight="medium">
            Project
          </chakra.label>
          <FormSelect size="sm" id="filter-project" name="project" defaultValue={project} key={project} minW="48">
            <option value="">All projects</option>
            {projects.map((item) => (
              <option key={item.uuid} value={item.uuid}>
                {item.name}
              </option>
            ))}
          </FormSelect>
        </Stack>
        <Stack gap="1">
          <chakra.label htmlFor="filter-q" fontSize="sm" fontWeight="medium">
            {nameLabel}
          </chakra.label>
          <Input id="filter-q" type="search" name="q" defaultValue={q} key={q} maxW="sm" bg="bg" size="sm" />
        </Stack>
        <Button type="submit" size="sm" variant="outline">
          Filter
        </Button>
      </HStack>
    </Form>
  )
}
