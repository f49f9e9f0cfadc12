import '../../tests/env'
import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ClusterError } from '~/api/errors.server'
import { unwrap } from '../../tests/session'
import { loadFromCluster, replyFromCluster } from './form.server'

const Schema = z.object({ name: z.string(), settings: z.object({ stream: z.object({ hot_data_max_age_minutes: z.number() }) }) })

function submission() {
  const form = new FormData()
  form.set('name', 'logs')
  form.set('settings.stream.hot_data_max_age_minutes', '3')
  form.set('password', 'secret')
  return parseWithZod(form, { schema: Schema })
}

async function thrownFrom(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected a throw')
}

type Reply = { result: { error: Record<string, string[] | null>; initialValue: Record<string, unknown> } }

describe('replyFromCluster', () => {
  it('puts a 400’s field errors on the form’s fields (nested settings by dotted name) and folds the rest', async () => {
    const error = new ClusterError({
      status: 400,
      body: {
        name: ['A table with this name already exists.'],
        settings: { stream: { hot_data_max_age_minutes: ['Ensure this value is greater than or equal to 1.'] } },
        non_field_errors: ['Check the table.'],
      },
    })
    const { data, status } = unwrap<Reply>(await replyFromCluster(submission(), error))
    expect(status).toBe(400)
    expect(data.result.error).toEqual({
      '': ['Check the table.'],
      name: ['A table with this name already exists.'],
      'settings.stream.hot_data_max_age_minutes': ['Ensure this value is greater than or equal to 1.'],
    })
  })

  it('hides secrets from the values sent back', async () => {
    const error = new ClusterError({ status: 400, body: { password: ['Too short.'] } })
    const { data } = unwrap<Reply>(await replyFromCluster(submission(), error, undefined, { hideFields: ['password'] }))
    expect(data.result.initialValue.password).toBeUndefined()
    expect(data.result.initialValue.name).toBe('logs')
  })

  it('a 401 ends the session and comes back to the page the form was on', async () => {
    const request = new Request('http://console.test/data/new-table', { method: 'POST', headers: { Referer: 'http://console.test/data/new-table?project=p1' } })
    const thrown = (await thrownFrom(replyFromCluster(submission(), new ClusterError({ status: 401, body: {} }), request))) as Response
    expect(thrown.status).toBe(302)
    expect(thrown.headers.get('Location')).toBe('/login?prevUrl=%2Fdata%2Fnew-table%3Fproject%3Dp1')
  })

  it('other failures are thrown with the catalogue message for the error boundary', async () => {
    const thrown = (await thrownFrom(replyFromCluster(submission(), new ClusterError({ status: 502, body: '' })))) as never
    expect(unwrap(thrown)).toEqual({ data: { message: 'Bad Gateway.', status: 502 }, status: 502 })
  })

  it('rethrows what is not a cluster error', async () => {
    const boom = new Error('bug')
    expect(await thrownFrom(replyFromCluster(submission(), boom))).toBe(boom)
  })
})

describe('loadFromCluster', () => {
  it('turns a cluster failure into the catalogue message', async () => {
    const thrown = await thrownFrom(
      loadFromCluster(new Request('http://console.test/x'), () => Promise.reject(new ClusterError({ status: 404, statusText: 'Not Found' }))),
    )
    expect(unwrap(thrown)).toMatchObject({ data: { message: '404 Error: Not Found.' }, status: 404 })
  })
})
