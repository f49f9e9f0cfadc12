import { describe, expect, it } from 'vitest'
import { curlExample } from './__table-ingest'

/* Issue 36, item 9: the curl example a table page shows. */

const base = {
  url: 'https://cluster.example.com/ingest/event',
  tableRef: 'web.cdn',
  transform: { name: 'cf_tsv', type: 'csv', editTo: '/x' },
  hasStreamTokens: false,
  newTransformTo: '/y',
}

describe('curlExample', () => {
  it('a CSV transform: its content type and file, the token a shell variable', () => {
    expect(curlExample(base)).toBe(
      [
        `curl -X POST 'https://cluster.example.com/ingest/event'`,
        `-H "Authorization: Bearer $HDX_TOKEN"`,
        `-H 'x-hdx-table: web.cdn'`,
        `-H 'x-hdx-transform: cf_tsv'`,
        `-H 'content-type: text/csv'`,
        `--data-binary @events.csv`,
      ].join(' \\\n  '),
    )
  })

  it('a table with stream tokens takes one in x-hdx-token; without a transform the header is left out', () => {
    const text = curlExample({ ...base, transform: null, hasStreamTokens: true })
    expect(text).toContain(`-H "x-hdx-token: $HDX_STREAM_TOKEN"`)
    expect(text).not.toContain('Authorization')
    expect(text).not.toContain('x-hdx-transform')
    expect(text).toContain(`-H 'content-type: application/json'`)
  })
})
