/**
 * Issue 50: what a live cluster answers (its GET output, generated in tests/live-cluster-shapes.ts)
 * is created again here, read, sent back unchanged and read again, with nothing lost or changed.
 * `LIVE_RUNS` / `LIVE_SEED` set the property runs (default 12 each).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { differences, liveOrg, liveTable, liveTransform, withoutServerKeys } from '../../tests/live-cluster-shapes'
import { c, org, useContractCluster } from './helpers'

useContractCluster()

const RUNS = Number(process.env.LIVE_RUNS ?? 12)
const SEED = process.env.LIVE_SEED ? Number(process.env.LIVE_SEED) : undefined
const o = () => `/config/v1/orgs/${org}`
let n = 0

async function newProject() {
  n += 1
  const p = await c.api('POST', `${o()}/projects/`, { name: `live_p${n}` })
  expect(p.status).toBe(201)
  return p.body.uuid as string
}

async function newTable(project: string) {
  n += 1
  const t = await c.api('POST', `${o()}/projects/${project}/tables/`, { name: `live_t${n}` })
  expect(t.status).toBe(201)
  return t.body.uuid as string
}

/**
 * create → read → the read object sent back unchanged (PUT, then PATCH) → read: what was sent comes
 * back as sent, and each save leaves the object as it was (`modified` aside). Returns the problems.
 */
async function roundTrip(collection: string, body: Record<string, unknown>): Promise<string[]> {
  const created = await c.api('POST', collection, body)
  if (created.status !== 201) return [`refused ${created.status}: ${JSON.stringify(created.body).slice(0, 600)}`]
  const item = `${collection}${created.body.uuid}`
  const read = (await c.api('GET', item)).body
  const problems = differences(body, read).map((d) => `create: ${d}`)
  for (const method of ['PUT', 'PATCH']) {
    const saved = await c.api(method, item, read)
    if (saved.status !== 200) return [...problems, `${method} refused ${saved.status}: ${JSON.stringify(saved.body)}`]
    const again = (await c.api('GET', item)).body
    problems.push(
      ...differences(withoutServerKeys(read, ['modified']), withoutServerKeys(again, ['modified']), true).map(
        (d) => `${method}: ${d}`,
      ),
    )
  }
  return problems
}

describe('live-cluster shapes', () => {
  it('a transform as a live cluster answers it (~60 columns, nulls, unknown keys) is created, kept and saved back unchanged', async () => {
    const project = await newProject()
    await fc.assert(
      fc.asyncProperty(liveTransform('live'), async (transform) => {
        const table = await newTable(project)
        const problems = await roundTrip(`${o()}/projects/${project}/tables/${table}/transforms/`, transform)
        expect(problems).toEqual([])
      }),
      { numRuns: RUNS, seed: SEED },
    )
  }, 240_000)

  it('a table as a live cluster answers it (table_type null, query options, autoingest, tokens) is kept and saved back', async () => {
    const project = await newProject()
    let i = 0
    await fc.assert(
      fc.asyncProperty(liveTable('x'), async (table) => {
        i += 1
        const problems = await roundTrip(`${o()}/projects/${project}/tables/`, { ...table, name: `shape_${i}` })
        expect(problems).toEqual([])
      }),
      { numRuns: RUNS, seed: SEED },
    )
  }, 120_000)

  it('the rules still hold where nulls are accepted: an array without elements, no primary, a primary null everywhere', async () => {
    const project = await newProject()
    const path = `${o()}/projects/${project}/tables/${await newTable(project)}/transforms/`
    const dt = { primary: null, format: null, resolution: 'seconds', default: null, script: null, suppress: false }
    const ts = { name: 'ts', datatype: { ...dt, type: 'datetime', primary: true, format: '2006-01-02 15:04:05' } }
    const noElements = await c.api('POST', path, {
      name: 'no_elements',
      type: 'json',
      settings: {
        output_columns: [ts, { name: 'tags', datatype: { ...dt, type: 'array', index: false, elements: null } }],
      },
    })
    expect(noElements.status).toBe(400)
    expect(noElements.body.settings.output_columns[1].datatype.elements).toEqual([
      'An array column needs exactly one element type.',
    ])
    const noPrimary = await c.api('POST', path, {
      name: 'no_primary',
      type: 'json',
      settings: { output_columns: [{ ...ts, datatype: { ...ts.datatype, primary: null } }] },
    })
    expect(noPrimary.status).toBe(400)
    expect(noPrimary.body.settings.output_columns).toEqual(['A primary column (datetime or epoch) is required.'])
    const noFormat = await c.api('POST', path, {
      name: 'no_format',
      type: 'json',
      settings: { output_columns: [{ ...ts, datatype: { ...ts.datatype, format: null } }] },
    })
    expect(noFormat.status).toBe(400)
    expect(noFormat.body.settings.output_columns[0].datatype.format).toEqual([
      'A format is required for datetime and epoch columns.',
    ])
    // the keys the cluster writes itself are not taken from a body sent back
    const table = await c.api('POST', `${o()}/projects/${project}/tables/`, {
      name: 'server_keys',
      uuid: '00000000-0000-4000-8000-000000000000',
      _project: 'elsewhere',
      primary_key: 'nope',
      table_type: null,
    })
    expect(table.status).toBe(201)
    expect(table.body.uuid).not.toBe('00000000-0000-4000-8000-000000000000')
    expect(table.body.primary_key).toBe('')
    expect(table.body.table_type).toBeNull()
    expect((await c.api('GET', `${o()}/projects/${project}/tables/${table.body.uuid}`)).status).toBe(200)
  })

  it('ingest reads null as absent: primary null is not the primary, an epoch format is its unit (resolution "seconds")', async () => {
    const project = await newProject()
    const projectName = `live_p${n}`
    const table = await newTable(project)
    const tableName = `live_t${n}`
    const dt = { primary: null, format: null, resolution: 'seconds', default: null, script: null, suppress: false }
    const r = await c.api('POST', `${o()}/projects/${project}/tables/${table}/transforms/`, {
      name: 'live_csv',
      type: 'csv',
      settings: {
        is_default: true,
        compression: '',
        null_values: null,
        sql_transform: null,
        sample_data: null,
        wurfl: null,
        rate_limit: null,
        format_details: { delimiter: ',', skip_head: 0, quote: '"', escape: '"', flattening: null },
        output_columns: [
          {
            name: 'ts',
            datatype: {
              ...dt,
              type: 'datetime',
              primary: true,
              index: true,
              format: '2006-01-02 15:04:05',
              source: { from_input_index: 0 },
            },
          },
          {
            name: 'seen',
            datatype: {
              ...dt,
              type: 'datetime',
              index: true,
              format: '2006-01-02 15:04:05',
              source: { from_input_index: 1 },
            },
          },
          {
            name: 'at',
            datatype: { ...dt, type: 'epoch', index: true, format: 'ms', source: { from_input_index: 2 } },
          },
          { name: 'n', datatype: { ...dt, type: 'uint32', index: true, source: { from_input_index: 3 } } },
        ],
      },
    })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    // 150 rows: the engine maps them (decision 021); 3 rows: the JavaScript mapper
    for (const rows of [150, 3]) {
      const body = Array.from(
        { length: rows },
        (_, i) => `2024-01-01 00:00:${String(i % 60).padStart(2, '0')},,1700000000000,${i}`,
      ).join('\n')
      const ingested = await c.api('POST', '/ingest/event', body, undefined, {
        'x-hdx-table': `${projectName}.${tableName}`,
        'content-type': 'text/csv',
      })
      expect(ingested.status, JSON.stringify(ingested.body)).toBe(200)
    }
    const q = await c.api(
      'POST',
      '/query',
      `SELECT count(), countIf(seen IS NULL), min(toUnixTimestamp(at)) FROM ${projectName}.${tableName} FORMAT JSONCompact`,
    )
    expect(q.body.data[0].map(Number)).toEqual([153, 153, 1_700_000_000])
  })

  it('a generated org of live shape (80 tables, 70 transforms of ~60 columns) is made with no refusal and saved back', async () => {
    const [tables, transforms] = fc.sample(liveOrg(80, 70, 60), { numRuns: 1, seed: SEED ?? 50 })[0]
    const project = await newProject()
    const figures = { created: 0, refused: 0, roundTrips: 0, identical: 0, columns: 0 }
    const problems: string[] = []
    for (const [i, table] of tables.entries()) {
      const t = await c.api('POST', `${o()}/projects/${project}/tables/`, table)
      if (t.status !== 201) {
        figures.refused += 1
        problems.push(`table ${table.name}: ${t.status} ${JSON.stringify(t.body)}`)
        continue
      }
      figures.created += 1
      const transform = transforms[i]
      if (!transform) continue
      const path = `${o()}/projects/${project}/tables/${t.body.uuid}/transforms/`
      figures.columns += transform.settings.output_columns.length
      const found = await roundTrip(path, transform)
      if (found.some((p) => p.startsWith('refused'))) figures.refused += 1
      else figures.created += 1
      figures.roundTrips += 2
      if (!found.length) figures.identical += 2
      problems.push(...found.map((p) => `${transform.name}: ${p}`))
    }
    // the tables again, each read and sent back unchanged
    const listed = (await c.api('GET', `${o()}/projects/${project}/tables/?page_size=500`)).body
    for (const table of listed.results ?? listed) {
      const item = `${o()}/projects/${project}/tables/${table.uuid}`
      const read = (await c.api('GET', item)).body
      const saved = await c.api('PUT', item, read)
      const again = (await c.api('GET', item)).body
      figures.roundTrips += 1
      const found = differences(withoutServerKeys(read, ['modified']), withoutServerKeys(again, ['modified']), true)
      if (saved.status === 200 && !found.length) figures.identical += 1
      else problems.push(`${table.name}: ${saved.status} ${found.join('; ')}`)
    }
    console.log(`live org: ${JSON.stringify(figures)}`)
    expect(problems.slice(0, 5)).toEqual([])
    expect(figures).toMatchObject({ created: 150, refused: 0, roundTrips: 220, identical: 220 })
  }, 600_000)
})
