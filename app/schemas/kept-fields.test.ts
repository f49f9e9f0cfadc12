import { describe, expect, it } from 'vitest'
import { functionSchemaOf, keptFunctionFields } from './function'
import { keptDictionaryFields } from './dictionary'
import { keptAutoBatchFields, keptSourceFields } from './source'

/** An edit form as a browser posts it: the fields' text and the rendered values as `original`. */
function posted(fields: Record<string, string>, rendered: Record<string, string> | undefined) {
  const formData = new FormData()
  for (const [name, value] of Object.entries(fields)) formData.set(name, value)
  if (rendered) formData.set('original', JSON.stringify(rendered))
  return formData
}

describe('edit forms: fields posted as rendered are kept, in the browser as in the action (decision 072)', () => {
  // the cluster takes a function named with a leading underscore; the form's rule does not
  const rendered = { project: 'p', name: '_made_elsewhere', description: '', sql: '(x) -> x + 1' }

  it('a function name the rule refuses, posted unchanged, passes; typed, it is checked', () => {
    const unchanged = posted({ ...rendered, sql: '(x) -> x + 2' }, rendered)
    expect(keptFunctionFields(unchanged)).toEqual(['name', 'description'])
    expect(functionSchemaOf(unchanged).safeParse(Object.fromEntries(unchanged)).success).toBe(true)

    const typed = posted({ ...rendered, name: '_typed_here' }, rendered)
    const result = functionSchemaOf(typed).safeParse(Object.fromEntries(typed))
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((issue) => issue.message)).toContain(
      'Name must start with a letter and contain only letters, digits and underscores',
    )
  })

  it('a new function (no original) is checked in full, the project included', () => {
    const fresh = posted({ name: '_new', sql: '(x) -> x' }, undefined)
    expect(keptFunctionFields(fresh)).toEqual([])
    const messages = functionSchemaOf(fresh)
      .safeParse(Object.fromEntries(fresh))
      .error?.issues.map((issue) => issue.message)
    expect(messages).toEqual(
      expect.arrayContaining([
        'Project must be selected',
        'Name must start with a letter and contain only letters, digits and underscores',
      ]),
    )
  })

  it('dictionaries, sources and auto batch entries read their own places', () => {
    expect(keptDictionaryFields(posted({ name: 'd', description: 'x' }, { name: 'd', description: '' }))).toContain(
      'name',
    )
    // min and max replicas share one stored value: one changed, both are written
    const source = posted(
      { name: 's', replicasMin: '2', replicasMax: '3' },
      { name: 's', replicasMin: '1', replicasMax: '3' },
    )
    expect(keptSourceFields(source)).toContain('name')
    expect(keptSourceFields(source)).not.toContain('replicasMax')
    expect(keptAutoBatchFields(posted({ queue: 'q' }, { queue: 'q' }))).toContain('queue')
    expect(keptAutoBatchFields(posted({ queue: 'q' }, undefined))).toEqual([])
  })
})
