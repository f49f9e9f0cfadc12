import { getFormProps, type FormMetadata } from '@conform-to/react'
import { Box } from '~/components/ui/box'
import { HStack } from '~/components/ui/stack'
import { Button } from '~/components/ui/button'
import { Link as ChakraLink } from '~/components/ui/link'
import { Form, Link } from '@remix-run/react'
import type { ReactNode } from 'react'
import { FormErrors } from '~/components/forms/form-errors'

/**
 * A log page's filters: a GET form (the filters and paging live in the URL, with and without
 * scripts) laid out in a row, checked by the page's schema, with Apply and a link that clears them.
 */
export function LogFilterForm<Schema extends Record<string, unknown>>({
  form,
  label,
  keep = {},
  clearTo,
  children,
}: {
  form: FormMetadata<Schema, string[]>
  label: string
  /** URL parameters the filter keeps (the page size). */
  keep?: Record<string, string | undefined>
  clearTo: string
  children: ReactNode
}) {
  return (
    <Box as="section" aria-label={label} bg="bg" borderWidth="1px" rounded="md" p="4">
      <Form method="get" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={form.errors} />
        {Object.entries(keep).map(([key, value]) =>
          value ? <input key={key} type="hidden" name={key} value={value} /> : null,
        )}
        <Box
          display="grid"
          gridTemplateColumns={{ base: 'minmax(0, 1fr)', md: 'repeat(auto-fill, minmax(12rem, 1fr))' }}
          columnGap="4"
        >
          {children}
        </Box>
        <HStack gap="3">
          <Button type="submit" size="sm" colorPalette="blue">
            Apply filters
          </Button>
          <ChakraLink asChild fontSize="sm" color="link">
            <Link to={clearTo}>Clear filters</Link>
          </ChakraLink>
        </HStack>
      </Form>
    </Box>
  )
}
