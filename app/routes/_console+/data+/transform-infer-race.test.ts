import { beforeAll, describe, expect, it } from 'vitest'
import { useTestCluster } from '#tests/msw'
import { args, asResponse, loginAsAdmin, post, returnedOrThrown, unwrap } from '#tests/session'
import { NEW_PROJECT } from '~/schemas/table'
import { action as newTableAction } from './new-table'
import { action as newAction } from './new-transform'

/*
 * Issue 54, point 3: a Validate or Publish pressed while Infer ran sends the new form as the page
 * first drew it (one `timestamp` column, the JSON type) with the sample. Without scripts nothing in
 * the browser can stop it, so the action fills in the columns the sample proposes instead.
 */

useTestCluster()

type Reply = {
  result: { status?: string; error?: Record<string, string[] | null>; initialValue?: Record<string, any> }
  validation?: { numRows: number; errors: unknown[]; columns: { name: string }[] } | null
  notice?: string
  formKey?: string
}

let cookie: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
})

async function makeTable(name: string) {
  const response = asResponse(
    await returnedOrThrown(() =>
      newTableAction(
        args(post('/data/new-table', { project: NEW_PROJECT, newProjectName: `p_${name}`, name }, cookie)),
      ),
    ),
  )
  const [, tableId, projectId] = response.headers.get('Location')!.match(/tables\/([\w-]+)\?project=([\w-]+)/)!
  return `${projectId}/${tableId}`
}

const SAMPLE = ['ts,status,path', '2026-12-01T10:00:00Z,200,/a', '2026-12-01T10:00:01Z,404,/b'].join('\n')

/** The new form as the page draws it (the defaults), named, with a sample pasted. */
function untouchedForm(table: string, intent: string, extra: Record<string, string> = {}) {
  return {
    table,
    name: 'raced',
    type: 'json',
    'columns[0].name': 'timestamp',
    'columns[0].type': 'datetime',
    'columns[0].format': '2006-01-02T15:04:05Z',
    'columns[0].resolution': '',
    'columns[0].primary': 'on',
    'columns[0].index': 'on',
    'columns[0].elements': '',
    'columns[0].extra': '',
    delimiter: ',',
    quote: '"',
    comment: '#',
    escape: '"',
    skipHead: '0',
    bufferSize: '4096',
    flatteningActive: 'on',
    depth: '1',
    mapLeft: '.',
    sliceLeft: '[',
    sliceRight: ']',
    compression: 'none',
    sampleData: SAMPLE,
    intent,
    ...extra,
  }
}

/** The form the page draws from a reply, as it posts it back. */
function formOf(initialValue: Record<string, any>, intent: string): Record<string, string> {
  const form: Record<string, string> = { intent }
  for (const [key, value] of Object.entries(initialValue)) {
    if (Array.isArray(value))
      value.forEach((row: Record<string, unknown>, index) => {
        for (const [field, cell] of Object.entries(row))
          if (cell != null) form[`${key}[${index}].${field}`] = String(cell)
      })
    else if (value != null) form[key] = String(value)
  }
  return form
}

const send = (form: Record<string, string>) =>
  returnedOrThrown(() => newAction(args(post('/data/new-transform', form, cookie))))

const names = (reply: Reply) => (reply.result.initialValue?.columns as { name: string }[]).map((c) => c.name)

describe('a Validate or Publish that overtook Infer (issue 54, point 3)', () => {
  it('Validate with the untouched default columns validates the columns inferred from the sample', async () => {
    const table = await makeTable('race_validate')
    const { data, status } = unwrap<Reply>(await send(untouchedForm(table, 'validate')))
    expect(status).toBe(200)
    expect(names(data)).toEqual(['ts', 'status', 'path'])
    expect(data.result.initialValue).toMatchObject({ type: 'csv', delimiter: ',', skipHead: '1', columnsInferred: '1' })
    expect(data.validation).toMatchObject({ numRows: 2, errors: [] })
    expect(data.notice).toMatch(/still the form’s default.*filled in and validated/)
    expect(data.formKey).toMatch(/^infer-/)
  })

  it('Publish with the untouched default columns publishes nothing; the inferred columns come back, then publish', async () => {
    const table = await makeTable('race_publish')
    const refused = await send(untouchedForm(table, 'save'))
    const { data, status } = unwrap<Reply>(refused)
    expect(status).toBe(400)
    expect(data.result.error?.['']?.[0]).toMatch(/^Nothing was published/)
    expect(names(data)).toEqual(['ts', 'status', 'path'])
    // posted again as the page now shows it (marked as inferred), it publishes
    const published = asResponse(await send(formOf(data.result.initialValue!, 'save')))
    expect(published.status).toBe(302)
  })

  it('an operator who goes back to the one timestamp column on purpose is not refilled again', async () => {
    const table = await makeTable('race_kept')
    const published = asResponse(await send(untouchedForm(table, 'save', { columnsInferred: '1' })))
    expect(published.status).toBe(302)
  })

  it('no sample, or a sample that proposes the default column itself: published as posted', async () => {
    const table = await makeTable('race_plain')
    expect(asResponse(await send(untouchedForm(table, 'save', { sampleData: '', name: 'plain' }))).status).toBe(302)
    const same = '{"timestamp":"2026-12-01T10:00:00Z"}'
    const answer = await send(untouchedForm(table, 'save', { sampleData: same, name: 'same' }))
    expect(asResponse(answer).status).toBe(302)
  })
})
