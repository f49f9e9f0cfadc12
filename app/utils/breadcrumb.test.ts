import { describe, expect, it } from 'vitest'
import { buildBreadcrumb, humanize, isActionWord } from './breadcrumb'

const labels = (pathname: string, names = {}) => buildBreadcrumb(pathname, names).map((crumb) => crumb.label)
const TABLE = '6f1f7c8e-2c52-4b8e-9d43-2f1e0c6a7b11'
const POOL = '0b6c1d6e-5f0a-4e1b-8c9d-7a2b3c4d5e6f'

describe('breadcrumb', () => {
  it('turns dashes into spaces and capitalises the first letter', () => {
    expect(humanize('new-summary-table')).toBe('New summary table')
    expect(labels('/system-health/counts')).toEqual(['System health', 'Counts'])
    expect(labels('/dashboard')).toEqual(['Dashboard'])
  })

  it('links every crumb that is a page, and not the current page', () => {
    expect(buildBreadcrumb('/data/tables')).toEqual([{ label: 'Data' }, { label: 'Tables' }])
    expect(buildBreadcrumb(`/data/tables/${TABLE}`)).toEqual([
      { label: 'Data' },
      { label: 'Tables', href: '/data/tables' },
      { label: 'Table' },
    ])
    expect(buildBreadcrumb('/jobs/alter-jobs/create')).toEqual([
      { label: 'Jobs' },
      { label: 'Alter jobs', href: '/jobs/alter-jobs' },
      { label: 'Create' },
    ])
  })

  it.each([
    ['/scale/pool/' + POOL, ['Scale', 'Pool', 'Pool']],
    [`/data/tables/${TABLE}/transform/edit/abc`, ['Data', 'Tables', 'Table', 'Transform', 'Edit', 'Transform']],
    [`/data/tables/${TABLE}/source/edit/kafka/abc`, ['Data', 'Tables', 'Table', 'Source', 'Edit', 'Kafka', 'Source']],
    ['/security/buckets/abc', ['Security', 'Buckets', 'Bucket']],
    ['/security/credentials/abc', ['Security', 'Credentials', 'Credential']],
  ])('shows a placeholder, never the id, for id params: %s', (path, expected) => {
    expect(labels(path)).toEqual(expected)
  })

  it('shows the name a route gives for an id', () => {
    expect(labels(`/data/tables/${TABLE}`, { tableId: 'web_logs' })).toEqual(['Data', 'Tables', 'web_logs'])
    expect(labels(`/scale/pool/${POOL}`, { poolId: 'ingest-a' })).toEqual(['Scale', 'Pool', 'ingest-a'])
  })

  it('shows the section name instead of an id when the last segment is an action word', () => {
    expect(labels(`/data/tables/${TABLE}/edit-summary-settings`, { tableId: 'web_logs' })).toEqual([
      'Data',
      'Tables',
      'Table',
      'Edit summary settings',
    ])
    expect(labels('/data/files/p1/countries.csv/update-file', { name: 'countries.csv' })).toEqual([
      'Data',
      'Files',
      'Project',
      'File',
      'Update file',
    ])
    expect(labels('/security/users/42/edit-user', { userId: 'ann@example.com' })).toEqual([
      'Security',
      'Users',
      'User',
      'Edit user',
    ])
  })

  it('recognises the spec’s action words', () => {
    for (const word of [
      'create',
      'edit-role',
      'new-table',
      'invite-new-user',
      'reference',
      'update-file',
      'alter-jobs',
      'batch-jobs',
    ]) {
      expect(isActionWord(word), word).toBe(true)
    }
    for (const word of ['tables', 'edit', 'new', 'users', 'pool']) expect(isActionWord(word), word).toBe(false)
  })

  it('never shows a raw id on an unknown page', () => {
    expect(labels(`/somewhere/${TABLE}`)).toEqual(['Somewhere', 'Details'])
  })

  it('is empty at the root and ignores trailing slashes', () => {
    expect(buildBreadcrumb('/')).toEqual([])
    expect(labels('/data/tables/')).toEqual(['Data', 'Tables'])
  })
})
