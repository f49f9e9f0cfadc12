import { describe, expect, it } from 'vitest'
import { ENGINE_TYPES } from '~/routes/_console+/data+/__dictionary-lookup.server'
import { SCALARS, baseType } from '../cluster/data/engine'

// The console types a dictionary's lookup keys as the cluster stores them; app/ and cluster/ never
// import each other, so this is where the two mappings are held to one another.
describe('datatype → engine type', () => {
  it('is the same in the console and the local cluster', () => {
    expect(ENGINE_TYPES).toEqual(SCALARS)
  })

  it.each(Object.keys(SCALARS))('%s keys a dictionary with the type its column is stored as', (type) => {
    expect(ENGINE_TYPES[type]).toBe(baseType({ type }))
  })
})
