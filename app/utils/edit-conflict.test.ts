import { describe, expect, it } from 'vitest'
import { conflictsOf, originalOf, placeConflicts, seenAgain, shownValue } from './edit-conflict'
import { changeNote, conflictMessage, conflictSummary } from './edit-conflict.server'

const field = (seen: unknown, now: unknown, posted: unknown, isMultiline = false) => ({
  field: 'f',
  label: 'F',
  seen,
  now,
  posted,
  isMultiline,
})

describe('the conflict rule (decision 097)', () => {
  it('is a conflict only when the cluster changed the field since the form showed it and the post says otherwise', () => {
    expect(conflictsOf([field('a', 'b', 'c')])).toEqual([{ field: 'f', label: 'F', now: 'b' }])
    // nobody else changed it: the operator's change goes through
    expect(conflictsOf([field('a', 'a', 'c')])).toEqual([])
    // both made the same change: nothing would be lost
    expect(conflictsOf([field('a', 'b', 'b')])).toEqual([])
    // the form posted what it showed (a kept field) while the cluster changed it: still a conflict
    // when the caller asks (a field written because it shares a place with a changed one)
    expect(conflictsOf([field('a', 'b', 'a')])).toHaveLength(1)
  })

  it('compares as a browser posts: a textarea CR LF and first newline, a checkbox, null and absent as empty', () => {
    expect(conflictsOf([field('x\ny', 'x\ny', '\nx\r\ny', true)])).toEqual([])
    expect(conflictsOf([field(true, 'on', 'on')])).toEqual([])
    expect(conflictsOf([field(null, undefined, 'z')])).toEqual([])
    expect(conflictsOf([field(false, true, null)])).toEqual([{ field: 'f', label: 'F', now: 'on' }])
  })

  it('reads the written fields of a place map: not the kept ones', () => {
    const formData = new FormData()
    formData.set('a', 'typed')
    formData.set('b', 'old b')
    const conflicts = placeConflicts({
      formData,
      seen: { a: 'old a', b: 'old b' },
      now: { a: 'new a', b: 'new b' },
      places: { a: [['a']], b: [['b']] },
      kept: ['b'],
      labels: { a: 'A' },
    })
    expect(conflicts).toEqual([{ field: 'a', label: 'A', now: 'new a' }])
    expect(
      placeConflicts({ formData, seen: undefined, now: {}, places: { a: [['a']] }, kept: [], labels: {} }),
    ).toEqual([])
  })

  it('carries the conflicting fields as they are now, every other as first shown', () => {
    expect(
      seenAgain({ a: 'old a', b: 'old b', c: 'c' }, { a: 'new a', b: 'new b' }, [{ field: 'a', label: 'A', now: '' }]),
    ).toEqual({ a: 'new a', b: 'old b', c: 'c' })
    expect(seenAgain({ a: 'x' }, {}, [{ field: 'a', label: 'A', now: '' }])).toEqual({})
  })

  it('a refused form renders the original its answer carries, else the page’s', () => {
    expect(originalOf({ initialValue: { original: '{"a":1}' } }, '{"a":0}')).toBe('{"a":1}')
    expect(originalOf({ initialValue: {} }, '{"a":0}')).toBe('{"a":0}')
    expect(originalOf(undefined, undefined)).toBeUndefined()
  })

  it('says the value now, who and when', () => {
    expect(shownValue('')).toBe('(empty)')
    expect(shownValue('x'.repeat(300))).toHaveLength(201)
    const change = { by: 'ana@example.com', at: '2026-12-02T05:40:12.123456Z' }
    expect(changeNote(change)).toBe(' by ana@example.com at 2026-12-02 05:40:12 UTC')
    expect(changeNote({})).toBe('')
    const conflict = { field: 'cpu', label: 'CPU', now: '3' }
    expect(conflictMessage(conflict, change)).toBe(
      'Changed by ana@example.com at 2026-12-02 05:40:12 UTC since you opened this form: now ' +
        '“3”. Your value is kept here; save again to replace it.',
    )
    expect(conflictSummary([conflict, { field: 'm', label: 'Memory', now: '2Gi' }], {})).toBe(
      'Not saved: CPU, Memory were changed since you opened this form (CPU is now “3”; Memory ' +
        'is now “2Gi”). What you typed is kept: look at the values now and save again.',
    )
  })
})
