import { ChakraProvider } from '@chakra-ui/react'
import { getZodConstraint } from '@conform-to/zod/v4'
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { system } from '~/theme'
import { ColumnAnalysisSchema } from '~/schemas/summary'
import { SUMMARY_MESSAGES } from '~/schemas/summary-values'
import { ColumnAnalysisForm } from './__summary-editor'

// The form outside a Remix app: its router parts as the plain elements they render.
vi.mock('@remix-run/react', async (importOriginal) =>
  (await import('#tests/remix-plain')).plainRemixReact(importOriginal),
)

describe('ColumnAnalysisForm', () => {
  it('a refused parent (a hidden field: gone since the page was shown) is said in an alert (fuzz seed 1994793174)', () => {
    const html = renderToString(
      <ChakraProvider value={system}>
        <ColumnAnalysisForm
          constraint={getZodConstraint(ColumnAnalysisSchema)}
          parent="p/t"
          columns={[{ name: 'timestamp', type: 'datetime', primary: true }]}
          lastResult={{
            status: 'error',
            initialValue: { parent: 'p/t', timestampColumn: 'timestamp', timestampValue: '1' },
            error: { parent: [SUMMARY_MESSAGES.parentRequired] },
          }}
          sql={null}
          useHref="/data/tables/t/edit-summary-settings"
        />
      </ChakraProvider>,
    )
    expect(html).toMatch(new RegExp(`role="alert"[^>]*>[^<]*(<[^>]*>)*[^<]*${SUMMARY_MESSAGES.parentRequired}`))
  })

  it("a column's refused aggregation is marked at its select with its message (fuzz seed 1994793174)", () => {
    const message = 'Invalid option: expected one of "skip"|"group"'
    const html = renderToString(
      <ChakraProvider value={system}>
        <ColumnAnalysisForm
          constraint={getZodConstraint(ColumnAnalysisSchema)}
          parent="p/t"
          columns={[{ name: 'timestamp', type: 'datetime', primary: true }]}
          lastResult={{
            status: 'error',
            initialValue: { parent: 'p/t', columns: [{ name: 'timestamp', aggregation: 'x' }] },
            error: { 'columns[0].aggregation': [message] },
          }}
          sql={null}
          useHref="/data/tables/t/edit-summary-settings"
        />
      </ChakraProvider>,
    )
    // the select marked invalid, its attributes in either order
    const invalidSelect = [
      /<select[^>]*name="columns\[0\].aggregation"[^>]*aria-invalid="true"/.source,
      /<select[^>]*aria-invalid="true"[^>]*name="columns\[0\].aggregation"/.source,
    ].join('|')
    expect(html).toMatch(new RegExp(invalidSelect))
    expect(html).toContain('Invalid option: expected one of &quot;skip&quot;|&quot;group&quot;')
  })
})
