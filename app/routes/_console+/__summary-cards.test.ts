import { describe, expect, it } from 'vitest'
import { formatBytes } from '~/utils/format-number'
import { summaryCards } from './__summary-cards'

describe('summaryCards', () => {
  it('shows known resource counts in order, with their pages, and figures formatted by kind', () => {
    const { resources, activity } = summaryCards({
      uuid: 'org',
      name: 'Org',
      version: 'v5.12.0',
      org: { uuid: 'org', name: 'Org' },
      users: 2,
      tables: 9,
      projects: 3,
      sources: { kafka: 1, kinesis: 0, total: 1 },
      batch_jobs: { total: 4, done: 3, failed: 1 },
      raw_data_size: 1536,
      compression_ratio: 3.69,
      total_rows: 1_000_000,
      something_new: 5,
    })
    expect(resources.map((card) => [card.label, card.text, card.href])).toEqual([
      ['Projects', '3', '/data/tables'],
      ['Tables', '9', '/data/tables'],
      ['Ingest sources', '1', '/data/tables'],
      ['Batch jobs', '4', '/jobs/batch-jobs'],
      ['Users', '2', '/security/users'],
    ])
    expect(resources.find((card) => card.label === 'Batch jobs')?.detail).toBe('done 3, failed 1')
    expect(activity.map((card) => [card.label, card.text])).toEqual([
      ['Rows stored', '1,000,000'],
      ['Raw data size', '1.5 KB'],
      ['Compression ratio', '3.69×'],
      ['Something new', '5'],
    ])
  })

  it('reads counts wrapped in `summary` or `counts` and returns nothing for an empty answer', () => {
    expect(summaryCards({ counts: { tables: 1 } }).resources).toMatchObject([{ label: 'Tables', value: 1 }])
    expect(summaryCards({})).toEqual({ resources: [], activity: [] })
  })

  it('formats byte sizes in powers of 1024', () => {
    expect(formatBytes(512)).toBe('512 B')
    expect(formatBytes(323.3 * 1024 * 1024)).toBe('323.3 MB')
  })
})
