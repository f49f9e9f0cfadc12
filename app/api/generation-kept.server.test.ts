import { afterEach, describe, expect, it } from 'vitest'
import {
  forgetKeptAnswers,
  keepAnswer,
  keptAnswer,
  keptAnswerStats,
  MAX_ANSWER_CHARS,
  MAX_KEPT_ANSWERS,
  setGenerationReuse,
} from './generation-kept.server'

/*
 * Decision 113's store of answers by stamp: what a cluster that stamps nothing gets (nothing kept),
 * and its bounds. That a kept answer is shown only under the generation the cluster names in the
 * same request is in cluster-calls.test.ts, against the local cluster.
 */

afterEach(() => forgetKeptAnswers())

describe('answers kept by configuration generation', () => {
  it('keeps a stamped answer, and forgets the URL when its next answer has no stamp (a real cluster)', () => {
    keepAnswer('s\u0000/a', 'e.1', '{"a":1}')
    expect(keptAnswer('s\u0000/a')).toEqual({ generation: 'e.1', text: '{"a":1}' })
    keepAnswer('s\u0000/a', null, '{"a":2}')
    expect(keptAnswer('s\u0000/a')).toBeUndefined()
    keepAnswer('s\u0000/b', undefined, '{}')
    expect(keptAnswerStats()).toEqual({ answers: 0, chars: 0 })
  })

  it('keeps no answer longer than its limit, and holds at most its count, the least recently used out', () => {
    keepAnswer('long', 'e.1', 'x'.repeat(MAX_ANSWER_CHARS + 1))
    expect(keptAnswer('long')).toBeUndefined()
    for (let i = 0; i < MAX_KEPT_ANSWERS; i++) keepAnswer(`k${i}`, 'e.1', '{}')
    // k0 used now: k1 is the least recently used
    expect(keptAnswer('k0')).toBeDefined()
    keepAnswer('one more', 'e.1', '{}')
    expect(keptAnswerStats().answers).toBe(MAX_KEPT_ANSWERS)
    expect(keptAnswer('k0')).toBeDefined()
    expect(keptAnswer('k1')).toBeUndefined()
    expect(keptAnswerStats().chars).toBe(2 * MAX_KEPT_ANSWERS)
  })

  it('keeps and answers nothing while reuse is off', () => {
    keepAnswer('s\u0000/a', 'e.1', '{}')
    const restore = setGenerationReuse(false)
    try {
      expect(keptAnswer('s\u0000/a')).toBeUndefined()
      keepAnswer('s\u0000/c', 'e.1', '{}')
    } finally {
      restore()
    }
    expect(keptAnswer('s\u0000/c')).toBeUndefined()
  })
})
