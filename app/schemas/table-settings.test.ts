import { describe, expect, it } from 'vitest'
import { keptSettingFields, settingsGroup, settingsSchema } from './table-settings'

/** The Merge form as a browser posts it: the fields' text and the stored group as rendered. */
function mergeForm(fields: Record<string, string>, stored: unknown) {
  const formData = new FormData()
  for (const [name, value] of Object.entries(fields)) formData.set(name, value)
  formData.set('original', JSON.stringify(stored))
  return formData
}

describe('table settings: what is kept as stored is not checked again (decision 072)', () => {
  const merge = settingsGroup('merge')!
  // the cluster's default memory coefficient is 0, which the form's rule (a positive number) refuses
  const stored = { merge: { enabled: true, memory_coefficient: 0, x_other_tool: 'kept' } }
  const check = (formData: FormData) =>
    settingsSchema(merge, { lockedFields: keptSettingFields(merge, formData) }).safeParse(Object.fromEntries(formData))

  it('a stored value the rule refuses, posted as rendered, is kept and passes', () => {
    const formData = mergeForm({ memory_coefficient: '0' }, stored)
    expect(keptSettingFields(merge, formData)).toContain('memory_coefficient')
    expect(check(formData).success).toBe(true)
  })

  it('the same value typed over another stored value is checked, with the spec message', () => {
    const formData = mergeForm({ memory_coefficient: '0' }, { merge: { memory_coefficient: 0.5 } })
    expect(keptSettingFields(merge, formData)).not.toContain('memory_coefficient')
    const result = check(formData)
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((issue) => issue.message)).toContain('Memory coefficient must be a positive number')
  })

  it('without the stored group nothing is kept; as JSON, fields compare by value', () => {
    const formData = new FormData()
    formData.set('memory_coefficient', '0')
    expect(keptSettingFields(merge, formData)).toEqual([])
    const posted = { merge: { enabled: true, memory_coefficient: 0 } }
    expect(keptSettingFields(merge, mergeForm({}, stored), posted)).toEqual(
      expect.arrayContaining(['disable', 'memory_coefficient']),
    )
    expect(keptSettingFields(merge, mergeForm({}, stored), { merge: { memory_coefficient: 2 } })).not.toContain(
      'memory_coefficient',
    )
  })
})
