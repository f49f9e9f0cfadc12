import { beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { useTestCluster } from '#tests/msw'
import { args, asResponse, loginAsAdmin, post, returnedOrThrown, unwrap } from '#tests/session'
import { NEW_PROJECT } from '~/schemas/table'
import { action as newTableAction } from '~/routes/_console+/data+/new-table'
import { action as newTransformAction } from '~/routes/_console+/data+/new-transform'
import {
  checkFormShape,
  MALFORMED_FORM_MESSAGE,
  MAX_LIST_ROWS,
  parseWithZod,
  ROWS_KEPT_WHEN_TOO_MANY,
  setByThePage,
  TOO_MANY_ROWS_MESSAGE,
} from './form-shape'

useTestCluster()

type Reply = {
  result: { status?: string; error?: Record<string, string[] | null>; initialValue?: Record<string, any> }
}

let cookie: string
let table: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
  const response = asResponse(
    await returnedOrThrown(() =>
      newTableAction(
        args(post('/data/new-table', { project: NEW_PROJECT, newProjectName: 'p_shape', name: 'shape' }, cookie)),
      ),
    ),
  )
  const [, tableId, projectId] = response.headers.get('Location')!.match(/tables\/([\w-]+)\?project=([\w-]+)/)!
  table = `${projectId}/${tableId}`
})

function form(entries: [string, string][]): FormData {
  const data = new FormData()
  for (const [name, value] of entries) data.append(name, value)
  return data
}

/** Posts `entries` (repeats kept, in order) to /data/new-transform. */
async function send(entries: [string, string][]) {
  const request = new Request('http://console.test/data/new-transform', {
    method: 'POST',
    body: new URLSearchParams(entries),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
  })
  return unwrap<Reply>(await returnedOrThrown(() => newTransformAction(args(request))))
}

const typed = (): [string, string][] => [
  ['table', table],
  ['name', 'kept_name'],
  ['type', 'json'],
  ['columns[0].name', 'timestamp'],
  ['columns[0].type', 'datetime'],
]

describe('checkFormShape', () => {
  it('passes what conform writes, refuses what it cannot read', () => {
    expect(checkFormShape(form(typed()))).toBeNull()
    expect(
      checkFormShape(
        form([...typed(), ['__intent__', JSON.stringify({ type: 'insert', payload: { name: 'columns' } })]]),
      ),
    ).toBeNull()
    for (const intent of [
      'x',
      '[]',
      '{}',
      'null',
      '{"type":"boom","payload":{}}',
      '{"type":"remove","payload":{"name":"columns","index":1e9}}',
    ])
      expect(checkFormShape(form([...typed(), ['__intent__', intent]]))?.message, intent).toBe(MALFORMED_FORM_MESSAGE)
    const twice = JSON.stringify({ type: 'validate', payload: {} })
    expect(
      checkFormShape(
        form([
          ['__intent__', twice],
          ['__intent__', twice],
        ]),
      )?.message,
    ).toBe(MALFORMED_FORM_MESSAGE)
    expect(checkFormShape(form([['columns[99999999].name', 'x']]))?.message).toBe(MALFORMED_FORM_MESSAGE)
    const many = Array.from({ length: 10_000 }, (_, i): [string, string] => [`columns[${i}].name`, `c${i}`])
    expect(checkFormShape(form(many))?.message).toBe(TOO_MANY_ROWS_MESSAGE)
    // the form comes back with the first rows only: rendering thousands of rows took minutes
    const cleaned = [...checkFormShape(form(many))!.cleaned]
    expect(cleaned).toHaveLength(ROWS_KEPT_WHEN_TOO_MANY)
    expect(cleaned.at(-1)).toEqual([`columns[${ROWS_KEPT_WHEN_TOO_MANY - 1}].name`, `c${ROWS_KEPT_WHEN_TOO_MANY - 1}`])
    // out of order is renumbered in index order; a gap is refused
    const shape = checkFormShape(
      form([
        ['columns[1].name', 'b'],
        ['columns[5].name', 'c'],
        ['columns[0].name', 'a'],
      ]),
    )
    expect(shape?.message).toBe(MALFORMED_FORM_MESSAGE)
    expect([...shape!.cleaned]).toEqual([
      ['columns[1].name', 'b'],
      ['columns[2].name', 'c'],
      ['columns[0].name', 'a'],
    ])
  })
})

describe('a submission conform cannot read is a 400 with the form kept (issue 37)', () => {
  const cases: [string, [string, string][]][] = [
    ['__intent__=x', [...typed(), ['__intent__', 'x']]],
    ['__intent__=[]', [...typed(), ['__intent__', '[]']]],
    ['__intent__ twice', [...typed(), ['__intent__', '{"type":"validate","payload":{}}'], ['__intent__', 'x']]],
    ['__state__ not JSON', [...typed(), ['__state__', 'x']]],
    ['a huge index', [...typed(), ['columns[99999999].name', 'far']]],
    ['indices with a gap, out of order', [...typed(), ['columns[7].name', 'b'], ['columns[3].name', 'a']]],
    [
      '10,000 rows',
      [...typed(), ...Array.from({ length: 10_000 }, (_, i): [string, string] => [`columns[${i + 1}].name`, `c${i}`])],
    ],
  ]
  for (const [label, entries] of cases)
    it(label, async () => {
      const { status, data } = await send(entries)
      expect(status).toBe(400)
      expect(data.result.error?.['']?.[0]).toMatch(/could not be read|more rows than/)
      expect(data.result.initialValue).toMatchObject({ name: 'kept_name', type: 'json' })
    })

  it('repeated fields are refused by the schema, not a 500', async () => {
    const { status, data } = await send([...typed(), ['name', 'second'], ['type', 'csv']])
    expect(status).toBe(400)
    expect(data.result.status).toBe('error')
  })

  it(`a list of ${MAX_LIST_ROWS} rows is read`, () => {
    const rows = Array.from({ length: MAX_LIST_ROWS }, (_, i): [string, string] => [`columns[${i}].name`, `c${i}`])
    expect(checkFormShape(form(rows))).toBeNull()
  })
})

describe('a refused field the page sets itself is said at the top of the form (setByThePage)', () => {
  const schema = z.object({ table: setByThePage(), name: z.string({ error: 'Name is required' }) })
  const parse = (entries: [string, string][]) => {
    const submission = parseWithZod(form(entries), { schema })
    return { ...submission, error: submission.status === 'error' ? submission.error : undefined }
  }

  it('missing or sent twice: the form error first, the field errors kept, the reply says it too', () => {
    for (const entries of [
      [['name', 'typed']],
      [
        ['table', 'a/b'],
        ['table', 'c/d'],
        ['name', 'typed'],
      ],
    ] as [string, string][][]) {
      const submission = parse(entries)
      expect(submission.status).toBe('error')
      expect(submission.error?.['']).toEqual([MALFORMED_FORM_MESSAGE])
      const reply = submission.reply({ formErrors: ['The cluster said no'] })
      expect(reply.error?.['']).toEqual([MALFORMED_FORM_MESSAGE, 'The cluster said no'])
      expect(reply.initialValue).toMatchObject({ name: 'typed' })
    }
  })

  it('a refusal of a field the user fills is not lifted, and a valid form passes', () => {
    expect(parse([['table', 'a/b']]).error).toEqual({ name: ['Name is required'] })
    expect(
      parse([
        ['table', 'a/b'],
        ['name', 'n'],
      ]).status,
    ).toBe('success')
  })
})
