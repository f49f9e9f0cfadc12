import { describe, expect, it } from 'vitest'
import { loader } from './_index'

describe('/jobs', () => {
  it('has no page of its own: it goes to the alter job list', () => {
    const response = loader()
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/jobs/alter-jobs')
  })
})
