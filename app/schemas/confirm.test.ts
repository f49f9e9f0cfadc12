import { getZodConstraint } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { FORCE_CONSTRAINT, ForceConfirmSchema } from './confirm'

describe('the force confirmation', () => {
  it('has the written-out HTML constraint its schema gives (the panel renders it before the schema loads)', () => {
    expect(FORCE_CONSTRAINT).toEqual(getZodConstraint(ForceConfirmSchema))
  })
})
