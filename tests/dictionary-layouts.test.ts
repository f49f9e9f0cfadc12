import { describe, expect, it } from 'vitest'
import { DICTIONARY_LAYOUTS } from '~/schemas/dictionary-values'
import { DICTIONARY_LAYOUTS as CLUSTER_LAYOUTS } from '../cluster/config/dictionaries'

// The dictionary form offers the layouts the cluster accepts; app/ and cluster/ never import each
// other, so this is where the two lists are held to one another (as tests/datatypes.test.ts does).
describe('dictionary layouts', () => {
  it('are the same, in the same order, in the console and the local cluster', () => {
    expect([...DICTIONARY_LAYOUTS]).toEqual(CLUSTER_LAYOUTS)
  })
})
