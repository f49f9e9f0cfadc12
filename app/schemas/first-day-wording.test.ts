import { describe, expect, it } from 'vitest'
import type { ClusterApi } from '~/api/client.server'
import { tryFunction } from '~/routes/_console+/data+/__function-try.server'
import { JsonSettingsSchema } from './table-settings'
import { TableFormSchema } from './table'
import { TransformFormSchema } from './transform'

/* Issue 36, item 11: the smaller things a first day met. */

describe('name length: one wording, the spec\'s ("Names are under 64 symbols")', () => {
  it('a table and a transform refuse a 64-symbol name with the same words', () => {
    const name = `a${'b'.repeat(63)}`
    const table = TableFormSchema.safeParse({ project: 'p', name })
    const transform = TransformFormSchema.safeParse({ table: 'p/t', name, type: 'json', columns: [] })
    const messageOf = (result: typeof table | typeof transform) =>
      result.error?.issues.find((issue) => issue.path[0] === 'name')?.message
    expect(messageOf(table)).toBe('Name must be under 64 symbols')
    expect(messageOf(transform)).toBe('Name must be under 64 symbols')
  })
})

describe('settings edited as JSON', () => {
  it('a syntax error says where it broke, not "must be a JSON object"', () => {
    const result = JsonSettingsSchema.safeParse({ json: '{\n  "stream": {\n    "a": 1,\n  }\n}' })
    expect(result.error?.issues[0]?.message).toBe('Settings are not valid JSON: it breaks at line 4, column 3')
    const cut = JsonSettingsSchema.safeParse({ json: '{"stream": {' })
    expect(cut.error?.issues[0]?.message).toMatch(/^Settings are not valid JSON: it ends too early/)
    const list = JsonSettingsSchema.safeParse({ json: '[1]' })
    expect(list.error?.issues[0]?.message).toBe('Settings must be a JSON object')
  })
})

describe('function "Try it"', () => {
  const fn = { name: 'add_one', sql: '(x) -> x + 1' }
  const api = {} as ClusterApi
  it('a page opened afresh marks no argument (no "Not a number" before any input)', async () => {
    const outcome = await tryFunction(api, fn, new URL('http://console.test/data/functions/p/f'))
    expect(outcome.status).toBe('idle')
    expect(outcome.arguments[0]?.error).toBeUndefined()
  })
  it('once tried, a wrong argument is marked', async () => {
    const outcome = await tryFunction(api, fn, new URL('http://console.test/data/functions/p/f?a0=abc&t0=number&try=1'))
    expect(outcome.status).toBe('invalid')
    expect(outcome.arguments[0]?.error).toBe('Not a number')
  })
})
