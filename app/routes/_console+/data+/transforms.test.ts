import { beforeAll, describe, expect, it } from 'vitest'
import { failWith, useTestCluster } from '#tests/msw'
import { args, asResponse, get, loginAsAdmin, post, returnedOrThrown, unwrap } from '#tests/session'
import { TEST_CONSOLE_URL } from '#tests/env'
import { NEW_PROJECT } from '~/schemas/table'
import { action as newTableAction } from './new-table'
import { action as newAction, loader as newLoader } from './new-transform'
import { action as editAction, loader as editLoader } from './tables.$tableId.transform.edit.$transformId'
import { loader as downloadLoader } from './tables.$tableId.transform.edit.$transformId_.download'
import { action as validateAction, loader as validateLoader } from './validate-transform'
import { loader as tableLoader } from './tables.$tableId._index'
import { MALFORMED_FORM_MESSAGE } from '~/utils/form-shape'

useTestCluster()

type Reply = {
  result: { status?: string; error?: Record<string, string[] | null>; initialValue?: Record<string, any> }
  validation?: {
    rows: Record<string, string>[]
    errors: { row: number; message: string }[]
    columns: { name: string }[]
  } | null
  notice?: string
  /** What "Ingest the sample" did, shown beside its button (issue 54). */
  ingestNotice?: string
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
  return { tableId: tableId!, projectId: projectId!, table: `${projectId}/${tableId}` }
}

/** A valid JSON transform form with a primary timestamp, a status and a path column. */
function jsonForm(table: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    table,
    name: 'web_json',
    type: 'json',
    'columns[0].name': 'timestamp',
    'columns[0].type': 'datetime',
    'columns[0].format': '2006-01-02T15:04:05Z',
    'columns[0].primary': 'on',
    'columns[0].index': 'on',
    'columns[1].name': 'status',
    'columns[1].type': 'uint64',
    'columns[1].index': 'on',
    'columns[2].name': 'path',
    'columns[2].type': 'string',
    'columns[2].index': 'on',
    'columns[2].fulltext': 'on',
    flatteningActive: 'on',
    depth: '1',
    mapLeft: '.',
    sliceLeft: '[',
    sliceRight: ']',
    compression: 'none',
    nullValues: '-, null',
    ...extra,
  }
}

const send = (form: Record<string, string>) =>
  returnedOrThrown(() => newAction(args(post('/data/new-transform', form, cookie))))

describe('/data/new-transform', () => {
  it('preselects the table from ?project=&table= and starts with a primary timestamp column', async () => {
    const { tableId, projectId, table } = await makeTable('pre')
    const loaded = await newLoader(args(get(`/data/new-transform?project=${projectId}&table=${tableId}`, cookie)))
    expect(loaded.tables.find((choice) => choice.value === table)?.label).toBe('p_pre.pre')
    expect(loaded.defaultValue).toMatchObject({
      table,
      type: 'json',
      columns: [{ name: 'timestamp', type: 'datetime', primary: 'on' }],
    })
    const none = await newLoader(args(get('/data/new-transform?project=x&table=y', cookie)))
    expect(none.defaultValue.table).toBe('')
  })

  it("takes the form's defaults from the cluster's /defaults (transforms), buffer size 4096 among them", async () => {
    const loaded = await newLoader(args(get('/data/new-transform', cookie)))
    expect(loaded.defaultValue).toMatchObject({
      delimiter: ',',
      quote: '"',
      escape: '"',
      comment: '#',
      skipHead: '0',
      bufferSize: '4096',
      compression: 'none',
      depth: '1',
    })
    // the local cluster's default has flattening off; the spec names none and the console's own is on
    expect(loaded.defaultValue.flatteningActive).toBeUndefined()
  })

  it("falls back to the spec's transform defaults when /defaults fails or lacks them", async () => {
    failWith('/config/v1/defaults/', 503, { detail: 'down' }, 'get')
    failWith('/config/v1/defaults', 503, { detail: 'down' }, 'get')
    const failed = await newLoader(args(get('/data/new-transform', cookie)))
    expect(failed.defaultValue).toMatchObject({
      delimiter: ',',
      quote: '"',
      escape: '"',
      comment: '#',
      skipHead: '0',
      bufferSize: '4096',
      compression: 'none',
      flatteningActive: 'on',
    })
    // a cluster whose answer has no transform group
    failWith('/config/v1/defaults/', 200, { table: {} }, 'get')
    failWith('/config/v1/defaults', 200, { table: {} }, 'get')
    const lacking = await newLoader(args(get('/data/new-transform', cookie)))
    expect(lacking.defaultValue).toMatchObject({ bufferSize: '4096', quote: '"', flatteningActive: 'on' })
  })

  it('writes the buffer size of a CSV transform and loads it back; 0 is refused at the field', async () => {
    const { table, tableId, projectId } = await makeTable('buf')
    const csvForm = jsonForm(table, { name: 'buf_csv', type: 'csv', delimiter: ',', skipHead: '1', bufferSize: '8192' })
    const zero = unwrap<Reply>(await send({ ...csvForm, bufferSize: '0' }))
    expect(zero.data.result.error?.bufferSize).toEqual(['Buffer size must be a whole number greater than 0'])
    expect(asResponse(await send(csvForm)).status).toBe(302)
    const detail = await tableLoader(args(get(`/data/tables/${tableId}?project=${projectId}`, cookie), { tableId }))
    const listed = detail.transforms.find((transform) => transform.name === 'buf_csv')!
    const loaded = await editLoader(
      args(get(`/data/tables/${tableId}/transform/edit/${listed.uuid}?project=${projectId}`, cookie), {
        tableId,
        transformId: listed.uuid,
      }),
    )
    expect(loaded.defaultValue.bufferSize).toBe('8192')
  })

  it('answers the name rules and every column rule at their fields, keeping every column typed', async () => {
    const form = {
      table: '',
      name: '1bad',
      type: 'json',
      'columns[0].name': 'ts',
      'columns[0].type': 'datetime',
      'columns[0].ignore': 'on',
      'columns[0].primary': 'on',
      'columns[0].resolution': 'us',
      'columns[1].name': 'price',
      'columns[1].type': 'double',
      'columns[1].index': 'on',
      'columns[1].primary': 'on',
      'columns[2].name': 'tags',
      'columns[2].type': 'string',
      'columns[2].elements': 'string',
      'columns[2].fulltext': 'on',
      'columns[3].name': '',
      'columns[3].type': 'map',
    }
    const { data, status } = unwrap<Reply>(await send(form))
    expect(status).toBe(400)
    expect(data.result.error).toMatchObject({
      table: ['Table is required'],
      name: ['Name must not begin with a digit or special character'],
      'columns[0].format': ['Format is required if type is datetime or epoch'],
      'columns[0].ignore': ['A primary column cannot be ignored'],
      'columns[0].resolution': ['Resolution must be ms or s'],
      'columns[1].primary': ['Primary only if datetime or epoch'],
      'columns[1].index': ['Index cannot be enabled for double'],
      'columns[2].elements': ['Elements only for array or map'],
      'columns[2].fulltext': ['Fulltext needs index enabled'],
      'columns[3].name': ['Column name is required'],
      'columns[3].elements': ['Array needs one element type, map two (key, value)'],
    })
    expect(data.result.initialValue?.columns).toHaveLength(4)
    expect(data.result.initialValue?.columns[2]).toMatchObject({ name: 'tags', elements: 'string', fulltext: 'on' })

    const names = ['a-b', 'x'.repeat(65), '_x']
    const messages = [
      'Name may contain only alphanumerics and underscores',
      'Name must be under 64 symbols',
      'Name must not begin with a digit or special character',
    ]
    for (const [i, name] of names.entries()) {
      const reply = unwrap<Reply>(await send({ ...form, name }))
      expect(reply.data.result.error?.name).toEqual([messages[i]])
    }
  })

  it('adds and removes column rows as form submissions (no scripts), keeping what was typed', async () => {
    const { table } = await makeTable('rows')
    const added = unwrap<Reply>(
      await send({
        ...jsonForm(table, { name: 'typed_name' }),
        __intent__: JSON.stringify({
          type: 'insert',
          payload: { name: 'columns', defaultValue: { type: 'string', index: 'on' } },
        }),
      }),
    )
    expect(added.status).toBe(200)
    expect(added.data.result.initialValue?.columns).toHaveLength(4)
    expect(added.data.result.initialValue?.columns[3]).toMatchObject({ type: 'string', index: 'on' })
    expect(added.data.result.initialValue?.name).toBe('typed_name')
    const removed = unwrap<Reply>(
      await send({
        ...jsonForm(table),
        __intent__: JSON.stringify({ type: 'remove', payload: { name: 'columns', index: 1 } }),
      }),
    )
    expect(removed.data.result.initialValue?.columns.map((column: { name: string }) => column.name)).toEqual([
      'timestamp',
      'path',
    ])
  })

  it('refuses a malformed list intent beside intent=upload or infer (400, typed kept), as on a save', async () => {
    const { table } = await makeTable('shape')
    for (const intent of ['upload', 'infer']) {
      const reply = unwrap<Reply>(
        await send({
          ...jsonForm(table, { name: 'typed_name' }),
          // a sample to infer from: without the refusal, inference answers 200 with its proposal
          sampleData: '{"timestamp":"2024-05-01T10:00:00Z","status":200,"path":"/a"}',
          intent,
          __intent__: JSON.stringify({ type: 'remove', payload: { name: 'columns', index: 99_999_999 } }),
        }),
      )
      expect(reply.status).toBe(400)
      expect(reply.data.result.error?.['']?.[0]).toBe(MALFORMED_FORM_MESSAGE)
      expect(reply.data.result.initialValue?.name).toBe('typed_name')
    }
  })

  it('an edit without its table (a hidden field the page sets) says the form could not be read, at the top, typed kept', async () => {
    const { table, tableId } = await makeTable('fixed')
    expect(asResponse(await send(jsonForm(table))).status).toBe(302)
    const detail = await tableLoader(args(get(`/data/tables/${tableId}`, cookie), { tableId }))
    const listed = detail.transforms.find((transform) => transform.name === 'web_json')!
    const { table: _table, ...withoutTable } = jsonForm(table, { description: 'typed here' })
    const refused = unwrap<Reply>(
      await returnedOrThrown(() =>
        editAction(
          args(post(`/data/tables/${tableId}/transform/edit/${listed.uuid}`, withoutTable, cookie), {
            tableId,
            transformId: listed.uuid,
          }),
        ),
      ),
    )
    expect(refused.status).toBe(400)
    expect(refused.data.result.error?.['']).toEqual([MALFORMED_FORM_MESSAGE])
    expect(refused.data.result.initialValue?.description).toBe('typed here')
  })

  it('validates sample data through the cluster: parsed rows, and errors row by row at the column', async () => {
    const { table } = await makeTable('val')
    const sample = [
      '{"timestamp":"2024-05-01T10:00:00Z","status":200,"path":"/a"}',
      '{"timestamp":"2024-05-01T10:00:01Z","status":"oops","path":"/b"}',
    ].join('\n')
    const { data } = unwrap<Reply>(await send({ ...jsonForm(table), sampleData: sample, intent: 'validate' }))
    expect(data.validation?.rows).toHaveLength(1)
    expect(data.validation?.rows[0]).toMatchObject({ status: '200', path: '/a' })
    expect(data.validation?.errors).toHaveLength(1)
    expect(data.validation?.errors[0]?.row).toBe(2)
    expect(data.result.error?.['columns[1].name']?.[0]).toMatch(/^Sample row 2: /)

    const mismatch = unwrap<Reply>(await send({ ...jsonForm(table), sampleData: 'a,b\n1,2', intent: 'validate' }))
    expect(mismatch.status).toBe(400)
    expect(mismatch.data.result.error?.sampleData).toEqual([
      'Sample data must be valid JSON or CSV and must match the transform type',
    ])
  })

  it('infers columns from a CSV sample and from nested JSON lines, as a proposal', async () => {
    const csv = [
      'date,time,x-edge-location,sc-bytes,c-ip,cs-method,sc-status,time-taken,timestamp',
      '2024-05-01,10:00:00,FRA2-C1,2048,10.0.0.1,GET,200,0.012,2024-05-01T10:00:00Z',
      '2024-05-01,10:00:01,FRA2-C1,512,10.0.0.2,POST,404,0.300,2024-05-01T10:00:01Z',
    ].join('\n')
    const { data } = unwrap<Reply>(await send({ table: '', name: '', type: 'csv', sampleData: csv, intent: 'infer' }))
    const columns = data.result.initialValue?.columns as {
      name: string
      type: string
      format?: string
      primary?: string
    }[]
    expect(columns.map((c) => `${c.name}:${c.type}`)).toEqual([
      'date:datetime',
      'time:string',
      'x-edge-location:string',
      'sc-bytes:uint64',
      'c-ip:string',
      'cs-method:string',
      'sc-status:uint64',
      'time-taken:double',
      'timestamp:datetime',
    ])
    expect(columns.find((c) => c.primary === 'on')).toMatchObject({ name: 'timestamp', format: '2006-01-02T15:04:05Z' })
    expect(data.result.initialValue?.skipHead).toBe('1')
    expect(data.notice).toMatch(/Primary timestamp: timestamp/)

    const json = [
      '{"ts":1714557600,"req":{"method":"GET","status":200},"tags":["a","b"],"headers":{"ua":"x"},"latency":1.5,"ok":true}',
      '{"ts":1714557601,"req":{"method":"PUT","status":500},"tags":[],"headers":{"ua":"y","ref":"z"},"latency":2,"ok":false}',
    ].join('\n')
    const nested = unwrap<Reply>(await send({ table: '', name: '', type: 'json', sampleData: json, intent: 'infer' }))
    const jsonColumns = nested.data.result.initialValue?.columns as {
      name: string
      type: string
      format?: string
      elements?: string
      primary?: string
    }[]
    expect(jsonColumns.map((c) => `${c.name}:${c.type}${c.elements ? `<${c.elements}>` : ''}`)).toEqual([
      'ts:epoch',
      'req.method:string',
      'req.status:uint64',
      'tags:array<string>',
      'headers:map<string, string>',
      'latency:double',
      'ok:boolean',
    ])
    expect(jsonColumns[0]).toMatchObject({ format: 's', primary: 'on' })
    expect(nested.data.result.initialValue?.flatteningActive).toBe('on')

    const tsv = unwrap<Reply>(
      await send({
        table: '',
        name: '',
        type: 'csv',
        delimiter: ',',
        sampleData: 'date\ttime\tsc-status\n2024-05-01\t10:00:00\t200',
        intent: 'infer',
      }),
    )
    // shown as typed: `\t`, not a tab that looks empty (issue 36, item 10)
    expect(tsv.data.result.initialValue?.delimiter).toBe('\\t')
    expect((tsv.data.result.initialValue?.columns as { name: string }[]).map((c) => c.name)).toEqual([
      'timestamp',
      'date',
      'time',
      'sc-status',
    ])

    const empty = unwrap<Reply>(await send({ table: '', name: '', type: 'csv', sampleData: '', intent: 'infer' }))
    expect(empty.data.result.error?.sampleData).toEqual(['A sample CSV with headers is required'])
  })

  it('publishes, then the table lists it; the editor loads it back, saves, downloads and deletes it', async () => {
    const { table, tableId, projectId } = await makeTable('pub')
    const created = asResponse(await send(jsonForm(table, { sql: '', description: 'Web logs' })))
    expect(created.status).toBe(302)
    expect(created.headers.get('Location')).toBe(`/data/tables/${tableId}?project=${projectId}`)
    const detail = await tableLoader(args(get(`/data/tables/${tableId}?project=${projectId}`, cookie), { tableId }))
    const listed = detail.transforms.find((transform) => transform.name === 'web_json')!
    expect(listed).toMatchObject({ type: 'json', isDefault: true, columns: 3 })

    const params = { tableId, transformId: listed.uuid }
    const loaded = await editLoader(
      args(get(`/data/tables/${tableId}/transform/edit/${listed.uuid}?project=${projectId}`, cookie), params),
    )
    expect(loaded.defaultValue).toMatchObject({
      name: 'web_json',
      description: 'Web logs',
      type: 'json',
      nullValues: '-, null',
      flatteningActive: 'on',
    })
    expect((loaded.defaultValue.columns as Record<string, unknown>[])[2]).toMatchObject({
      name: 'path',
      fulltext: 'on',
      index: 'on',
    })

    const saved = asResponse(
      await returnedOrThrown(() =>
        editAction(
          args(
            post(
              `/data/tables/${tableId}/transform/edit/${listed.uuid}`,
              jsonForm(table, { 'columns[1].type': 'int64' }),
              cookie,
            ),
            params,
          ),
        ),
      ),
    )
    expect(saved.status).toBe(302)
    const reloaded = await editLoader(
      args(get(`/data/tables/${tableId}/transform/edit/${listed.uuid}?project=${projectId}`, cookie), params),
    )
    expect((reloaded.defaultValue.columns as Record<string, unknown>[])[1]).toMatchObject({
      name: 'status',
      type: 'int64',
    })

    const sample =
      '{"timestamp":"2024-05-01T10:00:00Z","status":200,"path":"/a"}\n{"timestamp":"2024-05-01T10:00:05Z","status":201,"path":"/b"}'
    const ingested = unwrap<Reply>(
      await returnedOrThrown(() =>
        editAction(
          args(
            post(
              `/data/tables/${tableId}/transform/edit/${listed.uuid}`,
              jsonForm(table, { 'columns[1].type': 'int64', sampleData: sample, intent: 'ingest' }),
              cookie,
            ),
            params,
          ),
        ),
      ),
    )
    expect(ingested.data.ingestNotice, JSON.stringify(ingested.data.result.error)).toBe(
      'Ingested 2 rows into p_pub.pub with transform web_json.',
    )
    const stats = await tableLoader(args(get(`/data/tables/${tableId}?project=${projectId}`, cookie), { tableId }))
    expect(stats.stats?.total_rows).toBe(2)
    const refused = unwrap<Reply>(
      await returnedOrThrown(() =>
        editAction(
          args(
            post(
              `/data/tables/${tableId}/transform/edit/${listed.uuid}`,
              jsonForm(table, { 'columns[1].type': 'int64', sampleData: '{"timestamp":"nope"}', intent: 'ingest' }),
              cookie,
            ),
            params,
          ),
        ),
      ),
    )
    expect(refused.status).toBe(400)
    expect(refused.data.result.error?.sampleData?.[0]).toMatch(/could not be mapped/)

    const file = asResponse(
      await returnedOrThrown(() =>
        downloadLoader(
          args(
            get(`/data/tables/${tableId}/transform/edit/${listed.uuid}/download?project=${projectId}`, cookie),
            params,
          ),
        ),
      ),
    )
    expect(file.headers.get('Content-Disposition')).toBe('attachment; filename="web_json.json"')
    const body = await file.json()
    expect(body).toMatchObject({ name: 'web_json', type: 'json' })
    expect(body.settings.output_columns).toHaveLength(3)

    const missing = asResponse(
      await returnedOrThrown(() =>
        downloadLoader(
          args(get(`/data/tables/${tableId}/transform/edit/nope/download`, cookie), { tableId, transformId: 'nope' }),
        ),
      ),
    )
    expect(missing.status).toBe(302)
    const toast = /cc_toast=([^.;]+)/.exec(missing.headers.get('Set-Cookie') ?? '')?.[1] ?? ''
    expect(Buffer.from(decodeURIComponent(toast), 'base64').toString()).toContain(
      'Error during the download of the transform.',
    )

    const prefilled = await validateLoader(
      args(get(`/data/validate-transform?project=${projectId}&table=${tableId}&transform=${listed.uuid}`, cookie)),
    )
    expect(prefilled.defaultValue.table).toBe(table)
    expect(JSON.parse(prefilled.defaultValue.schema)).toMatchObject({
      name: 'web_json',
      type: 'json',
      settings: { output_columns: [{ name: 'timestamp' }, { name: 'status' }, { name: 'path' }] },
    })

    const deleted = asResponse(
      await returnedOrThrown(() =>
        editAction(
          args(
            post(
              `/data/tables/${tableId}/transform/edit/${listed.uuid}`,
              { intent: 'delete-transform', project: projectId },
              cookie,
            ),
            params,
          ),
        ),
      ),
    )
    expect(deleted.status).toBe(302)
    const after = await tableLoader(args(get(`/data/tables/${tableId}?project=${projectId}`, cookie), { tableId }))
    expect(after.transforms).toHaveLength(0)
  })

  it("puts the cluster's column errors on the column's row and says publishing failed", async () => {
    const { table } = await makeTable('clerr')
    failWith(
      '/config/v1/orgs/:org/projects/:project/tables/:table/transforms/',
      400,
      { settings: { output_columns: [{}, { datatype: { format: ['Bad layout.'] } }] }, name: ['Taken.'] },
      'post',
    )
    const { data, status } = unwrap<Reply>(await send(jsonForm(table)))
    expect(status).toBe(400)
    expect(data.result.error).toMatchObject({
      'columns[1].format': ['Bad layout.'],
      name: ['Taken.'],
      '': ['Error publishing transform'],
    })
    expect(data.result.initialValue?.columns).toHaveLength(3)
  })

  it("the local cluster's own column rule (an epoch format) lands on that column's Format", async () => {
    const { table } = await makeTable('epochfmt')
    const { data, status } = unwrap<Reply>(
      await send(
        jsonForm(table, { 'columns[1].type': 'epoch', 'columns[1].format': 'minutes', 'columns[1].index': 'on' }),
      ),
    )
    expect(status).toBe(400)
    expect(data.result.error?.['columns[1].format']?.[0]).toMatch(/Epoch formats/)
  })

  it('uploads a transform file into the form; a non-JSON file or none gets the spec message', async () => {
    const upload = (file?: File) => {
      const body = new FormData()
      for (const [key, value] of Object.entries({ table: '', name: 'keep', type: 'json', intent: 'upload' }))
        body.set(key, value)
      if (file) body.set('transformFile', file)
      return returnedOrThrown(() =>
        newAction(
          args(
            new Request(`${TEST_CONSOLE_URL}/data/new-transform`, {
              method: 'POST',
              body,
              headers: { Cookie: cookie },
            }),
          ),
        ),
      )
    }
    const none = unwrap<Reply>(await upload())
    expect(none.data.result.error?.transformFile).toEqual(['A file is required for upload'])
    const notJson = unwrap<Reply>(await upload(new File(['a,b,c'], 't.json')))
    expect(notJson.data.result.error?.transformFile).toEqual(['The uploaded data is a non-json file'])
    const good = unwrap<Reply>(
      await upload(
        new File(
          [
            JSON.stringify({
              name: 'from_file',
              type: 'csv',
              settings: {
                output_columns: [{ name: 't', datatype: { type: 'epoch', format: 'ms', primary: true } }],
                format_details: { delimiter: ';' },
              },
            }),
          ],
          't.json',
        ),
      ),
    )
    expect(good.data.result.initialValue).toMatchObject({
      name: 'from_file',
      type: 'csv',
      delimiter: ';',
      columns: [{ name: 't', type: 'epoch', format: 'ms', primary: 'on' }],
    })
    expect(good.data.formKey).toMatch(/^upload-/)
  })
})

describe('/data/validate-transform', () => {
  const schema = JSON.stringify({
    type: 'csv',
    settings: {
      output_columns: [
        { name: 'ts', datatype: { type: 'datetime', format: '2006-01-02 15:04:05', primary: true } },
        { name: 'n', datatype: { type: 'uint32' } },
      ],
    },
  })

  it('shows the parsed rows and the refused ones; bad JSON and a mismatched sample get the spec messages', async () => {
    expect((await validateLoader(args(get('/data/validate-transform', cookie)))).defaultValue.schema).toBe('')
    const run = (form: Record<string, string>) =>
      returnedOrThrown(() => validateAction(args(post('/data/validate-transform', form, cookie))))
    const ok = unwrap<Reply>(await run({ schema, sampleData: '2024-01-01 00:00:00,5\n2024-01-01 00:00:01,x' }))
    expect(ok.data.validation?.rows).toEqual([{ ts: expect.stringMatching(/^2024-01-01/), n: '5' }])
    expect(ok.data.validation?.errors.map((error) => error.row)).toEqual([2])
    const badSchema = unwrap<Reply>(await run({ schema: '{oops', sampleData: 'x' }))
    expect(badSchema.status).toBe(400)
    expect(badSchema.data.result.error?.schema).toEqual(['Schema must be valid JSON'])
    const mismatch = unwrap<Reply>(await run({ schema, sampleData: '{"ts":1}' }))
    expect(mismatch.data.result.error?.sampleData).toEqual([
      'Sample data must be valid JSON or CSV and must match the transform type',
    ])
  })
})
