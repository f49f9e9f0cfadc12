import { beforeAll, describe, expect, it } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { useTestCluster } from '#tests/msw'
import { args, asResponse, loginAsAdmin, post, returnedOrThrown, unwrap } from '#tests/session'
import { NEW_PROJECT } from '~/schemas/table'
import { inferTransform } from './__transform-infer'
import { action as newTableAction } from './new-table'
import { action as newAction } from './new-transform'

useTestCluster()

/* Issue 36, items 1 and 10: a CloudFront-style sample (date and time apart, tab-separated) is inferred
   into a primary timestamp that keeps the time of day, and the form's CSV fields read as they should. */

const CLOUDFRONT = [
  'date\ttime\tx-edge-location\tsc-bytes\tc-ip\tcs-method\tcs-uri-stem\tsc-status',
  '2024-05-01\t10:00:00\tFRA2-C1\t2048\t10.0.0.1\tGET\t/index.html\t200',
  '2024-05-01\t23:59:58\tFRA2-C1\t512\t10.0.0.2\tGET\t/app.js\t304',
].join('\n')

let admin = ''
let projectId = ''
let tableId = ''

beforeAll(async () => {
  admin = await loginAsAdmin()
  const made = asResponse(
    await returnedOrThrown(() =>
      newTableAction(
        args(post('/data/new-table', { project: NEW_PROJECT, newProjectName: 'p_cf', name: 'cf_logs' }, admin)),
      ),
    ),
  )
  ;[, tableId, projectId] = made.headers.get('Location')!.match(/tables\/([\w-]+)\?project=([\w-]+)/)! as unknown as [
    string,
    string,
    string,
  ]
})

describe('inferring separate date and time columns', () => {
  it('makes the primary timestamp a virtual column whose script joins date and time; both stay as text', () => {
    const inferred = inferTransform(CLOUDFRONT, 'csv', '\t')!
    const [timestamp, date, time] = inferred.columns
    expect(timestamp).toEqual({
      name: 'timestamp',
      type: 'datetime',
      format: '2006-01-02 15:04:05',
      primary: true,
      index: true,
      extra: { virtual: true, script: "row['date'] + ' ' + row['time']" },
    })
    expect(date).toMatchObject({ name: 'date', type: 'string' })
    expect(date!.primary).toBeUndefined()
    expect(time).toMatchObject({ name: 'time', type: 'string' })
    expect(inferred.notes.join(' ')).toMatch(/keeps its time of day/)
  })

  it('published and ingested, a row is stored at its time of day, not at midnight', async () => {
    const table = `${projectId}/${tableId}`
    const infer = unwrap<{ result: { initialValue: Record<string, unknown> } }>(
      await newAction(
        args(
          post(
            '/data/new-transform',
            { table, name: 'cf_tsv', type: 'json', sampleData: CLOUDFRONT, intent: 'infer' },
            admin,
          ),
        ),
      ),
    )
    const proposed = infer.data.result.initialValue
    // publish what the form now holds, as the operator would
    const fields: Record<string, string> = {}
    for (const [key, value] of Object.entries(proposed)) if (typeof value === 'string') fields[key] = value
    ;(proposed.columns as Record<string, string>[]).forEach((column, i) => {
      for (const [key, value] of Object.entries(column)) if (value) fields[`columns[${i}].${key}`] = value
    })
    const published = asResponse(
      await returnedOrThrown(() =>
        newAction(args(post('/data/new-transform', { ...fields, table, name: 'cf_tsv', intent: 'save' }, admin))),
      ),
    )
    expect(published.status).toBe(302)
    // `\t` as typed in Delimiter is stored as a real tab
    const stored0 = await clusterCall<{
      results: { name: string; settings: { format_details: { delimiter: string } } }[]
    }>('GET', `/config/v1/orgs/{org}/projects/${projectId}/tables/${tableId}/transforms/`)
    expect(stored0.results.find((t) => t.name === 'cf_tsv')?.settings.format_details.delimiter).toBe('\t')
    await clusterCall('POST', '/ingest/event', CLOUDFRONT, {
      'x-hdx-table': 'p_cf.cf_logs',
      'x-hdx-transform': 'cf_tsv',
      'content-type': 'text/csv',
    })
    const stored = await clusterCall<string>(
      'POST',
      `/query?query=${encodeURIComponent(
        "SELECT toString(timestamp), `cs-uri-stem` FROM p_cf.cf_logs WHERE timestamp >= '2024-05-01' " +
          'ORDER BY timestamp FORMAT TSV',
      )}`,
    )
    expect(stored.trim().split('\n')).toEqual([
      '2024-05-01 10:00:00.000\t/index.html',
      '2024-05-01 23:59:58.000\t/app.js',
    ])
  })
})

describe('inferring a TSV sample while Type is JSON (the CSV fields were not sent)', () => {
  it('fills Delimiter as \\t, Quote, Comment and Escape with the defaults, and says Skip head is already 1 for TSV rows', async () => {
    const { data } = unwrap<{ result: { initialValue: Record<string, unknown> }; notice: string }>(
      await newAction(
        args(
          post(
            '/data/new-transform',
            {
              table: `${projectId}/${tableId}`,
              name: 'cf_tsv2',
              type: 'json',
              sampleData: CLOUDFRONT,
              intent: 'infer',
            },
            admin,
          ),
        ),
      ),
    )
    expect(data.result.initialValue).toMatchObject({
      type: 'csv',
      delimiter: '\\t',
      quote: '"',
      comment: '#',
      escape: '"',
      skipHead: '1',
    })
    expect(data.notice).toMatch(/2 TSV rows; Skip head is 1 so the header line is not ingested/)
    expect(data.notice).not.toMatch(/set Skip head/)
    expect(data.notice).not.toMatch(/CSV rows/)
  })
})
