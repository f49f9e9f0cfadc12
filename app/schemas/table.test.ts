import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { NEW_PROJECT, parseSortKeys, TABLE_MESSAGES, TableFormSchema } from './table'

function parse(fields: Record<string, string>) {
  const formData = new FormData()
  for (const [key, value] of Object.entries(fields)) formData.append(key, value)
  return parseWithZod(formData, { schema: TableFormSchema })
}

/** The field errors of a failed parse (undefined when it succeeded). */
function errorsOf(fields: Record<string, string>) {
  const submission = parse(fields)
  return submission.status === 'error' ? submission.error : undefined
}

describe('TableFormSchema', () => {
  it('requires a project and a name', () => {
    expect(errorsOf({})).toEqual({ project: ['Project is required'], name: ['Name is required'] })
  })

  it('wants names under 64 symbols: 63 pass, 64 do not', () => {
    expect(parse({ project: 'p', name: 'a'.repeat(63) }).status).toBe('success')
    expect(errorsOf({ project: 'p', name: 'a'.repeat(64) })).toEqual({ name: [TABLE_MESSAGES.nameTooLong] })
  })

  it('wants table and project names that are plain SQL identifiers', () => {
    for (const name of ['My Table', 'a.b', "x'; drop", 'ünïcode', '-lead', '1st', '_x']) {
      expect(errorsOf({ project: 'p', name })).toEqual({ name: [TABLE_MESSAGES.nameCharacters] })
    }
    expect(errorsOf({ project: NEW_PROJECT, newProjectName: 'my-proj', name: 'web_logs2' })).toEqual({
      newProjectName: [TABLE_MESSAGES.projectNameCharacters],
    })
    expect(parse({ project: 'p', name: 'Web_logs_2' }).status).toBe('success')
  })

  it('requires the new project name only when a new project is asked for, beside other errors', () => {
    expect(parse({ project: 'some-uuid', name: 't' }).status).toBe('success')
    expect(errorsOf({ project: NEW_PROJECT, name: '' })).toEqual({
      name: ['Name is required'],
      newProjectName: ['Project name is required'],
    })
    expect(errorsOf({ project: NEW_PROJECT, name: 't', newProjectName: 'p'.repeat(64) })).toEqual({
      newProjectName: ['Project name must be under 64 symbols'],
    })
    expect(parse({ project: NEW_PROJECT, name: 't', newProjectName: 'logs' }).status).toBe('success')
    // Every field's error at once, whichever fails first.
    expect(errorsOf({ project: NEW_PROJECT, name: 't', maxAgeDays: '1.5', sortKeys: '[' })).toEqual({
      maxAgeDays: ['Max age must be an integer'],
      sortKeys: ['Sort keys must be JSON'],
      newProjectName: ['Project name is required'],
    })
  })

  it('wants max age as a whole number of days', () => {
    for (const bad of ['1.5', 'abc', '-1', '1e']) {
      expect(errorsOf({ project: 'p', name: 't', maxAgeDays: bad }), bad).toEqual({
        maxAgeDays: ['Max age must be an integer'],
      })
    }
    const submission = parse({ project: 'p', name: 't', maxAgeDays: '30' })
    expect(submission.status === 'success' && submission.value.maxAgeDays).toBe(30)
    expect(parse({ project: 'p', name: 't', maxAgeDays: '' }).status).toBe('success')
  })

  it('wants sort keys as a JSON list of column names', () => {
    for (const bad of ['[timestamp', '{"a":1}', '[1, 2]', 'timestamp']) {
      expect(errorsOf({ project: 'p', name: 't', sortKeys: bad }), bad).toEqual({
        sortKeys: ['Sort keys must be JSON'],
      })
    }
    expect(parse({ project: 'p', name: 't', sortKeys: '["timestamp", "host"]' }).status).toBe('success')
    expect(parseSortKeys('["timestamp", "host"]')).toEqual(['timestamp', 'host'])
    expect(parseSortKeys('nope')).toBeUndefined()
  })
})
