import { useForm } from '@conform-to/react'
import { ChakraProvider } from '@chakra-ui/react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { formEntries } from '#tests/form-entries'
import { system } from '~/theme'
import { jsonProblemOf } from '~/utils/json-error'
import { CodeField } from './code-field'

function Harness({ text, language }: { text: string; language: 'sql' | 'json' }) {
  const [form, fields] = useForm<{ code?: string }>({ id: 'code-form', defaultValue: { code: text } })
  return (
    <form id={form.id} method="post">
      <CodeField meta={fields.code} label="Code" language={language} help="Some help" />
    </form>
  )
}

const render = (text: string, language: 'sql' | 'json' = 'sql') =>
  renderToString(
    <ChakraProvider value={system}>
      <Harness text={text} language={language} />
    </ChakraProvider>,
  )

describe('CodeField (decision 076)', () => {
  it('renders a labelled textarea with the field name and value on the server, no editor', () => {
    const text = 'SELECT a, b\nFROM p.t WHERE x < 1 AND y = "&"'
    const html = render(text)
    expect(html).toMatch(/<textarea[^>]*name="code"/)
    const id = /<textarea[^>]*id="([^"]+)"/.exec(html)?.[1]
    expect(id).toBeTruthy()
    expect(html).toContain(`for="${id}"`)
    expect(html).toMatch(/<textarea[^>]*aria-describedby="[^"]*-help/)
    expect(html).not.toContain('ace_editor')
    // posted as a browser without scripts posts it
    expect(formEntries(html, 'code-form', null)).toEqual([['code', text.replace(/\n/g, '\r\n')]])
  })

  it('a JSON field is the same textarea on the server', () => {
    const html = render('{"a": [1, 2]}', 'json')
    expect(formEntries(html, 'code-form', null)).toEqual([['code', '{"a": [1, 2]}']])
  })
})

describe('jsonProblemOf', () => {
  it('places the first error of a JSON text on its line, nothing for valid or blank text', () => {
    expect(jsonProblemOf('{"a": 1}')).toBeNull()
    expect(jsonProblemOf('  ')).toBeNull()
    expect(jsonProblemOf('{"a": 1,\n "b" 2}')).toMatchObject({ row: 1 })
    expect(jsonProblemOf('{"a": [1,\n2,\n3}')).toMatchObject({ row: 2 })
    // an unexpected end: at the end of the text
    expect(jsonProblemOf('{\n"a": 1\n')).toMatchObject({ row: 1 })
    expect(jsonProblemOf('{"a": 1')?.message).toMatch(/JSON/)
    // a message without a position (V8's "Unexpected token"): found from the text's prefixes
    expect(jsonProblemOf('{"type": "csv",\n"settings": {"output_columns": [}\n}')).toMatchObject({ row: 1, column: 32 })
  })
})
