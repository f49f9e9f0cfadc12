import '#tests/env'
import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ClusterError } from './errors.server'
import { unwrap } from '#tests/session'
import {
  answerFromCluster,
  formErrorsOf,
  jsonFromCluster,
  loadFromCluster,
  noneWhenDenied,
  nullOnMissing,
  replyFromCluster,
  settle,
  toastFromCluster,
  toastOnFailure,
} from './policies.server'

const Schema = z.object({
  name: z.string(),
  settings: z.object({ stream: z.object({ hot_data_max_age_minutes: z.number() }) }),
})

function submission() {
  const form = new FormData()
  form.set('name', 'logs')
  form.set('settings.stream.hot_data_max_age_minutes', '3')
  form.set('password', 'secret')
  return parseWithZod(form, { schema: Schema })
}

async function thrownFrom(run: () => unknown) {
  try {
    await run()
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
    const { data, status } = unwrap<Reply>(replyFromCluster(submission(), error))
    expect(status).toBe(400)
    expect(data.result.error).toEqual({
      '': ['Check the table.'],
      name: ['A table with this name already exists.'],
      'settings.stream.hot_data_max_age_minutes': ['Ensure this value is greater than or equal to 1.'],
    })
  })

  it('hides secrets from the values sent back', async () => {
    const error = new ClusterError({ status: 400, body: { password: ['Too short.'] } })
    const { data } = unwrap<Reply>(replyFromCluster(submission(), error, { hideFields: ['password'] }))
    expect(data.result.initialValue.password).toBeUndefined()
    expect(data.result.initialValue.name).toBe('logs')
  })

  it('renames the cluster’s fields to the form’s; a field the form lacks becomes a form error', async () => {
    const error = new ClusterError({
      status: 400,
      body: { name: ['Taken.'], settings: { stream: { hot_data_max_age_minutes: ['Too small.'] } } },
    })
    const { data } = unwrap<Reply>(
      replyFromCluster(submission(), error, { rename: { name: 'newProjectName' }, notes: ['Nothing was saved.'] }),
    )
    expect(data.result.error).toEqual({
      '': ['settings.stream.hot_data_max_age_minutes: Too small.', 'Nothing was saved.'],
      newProjectName: ['Taken.'],
    })
  })

  it('other failures come back with the form as typed and the catalogue message as its error (issue 37)', () => {
    const { data, status } = unwrap<Reply>(
      replyFromCluster(submission(), new ClusterError({ status: 502, body: '' }), { hideFields: ['password'] }),
    )
    expect(status).toBe(502)
    expect(data.result.error['']).toEqual(['Bad Gateway.'])
    expect(data.result.initialValue).toMatchObject({ name: 'logs' })
    expect(data.result.initialValue.password).toBeUndefined()
  })

  it('rethrows what is not a cluster error', async () => {
    const boom = new Error('bug')
    expect(await thrownFrom(() => replyFromCluster(submission(), boom))).toBe(boom)
  })
})

describe('loadFromCluster', () => {
  it('turns a cluster failure into the catalogue message', async () => {
    const thrown = await thrownFrom(() =>
      loadFromCluster(() => Promise.reject(new ClusterError({ status: 404, statusText: 'Not Found' }))),
    )
    expect(unwrap(thrown)).toMatchObject({ data: { message: '404 Error: Not Found.' }, status: 404 })
  })
})

describe('settle', () => {
  it('keeps a panel’s failure as its message and passes other errors on', async () => {
    expect(await settle(() => Promise.resolve(3))).toEqual({ value: 3, error: null })
    expect(await settle(() => Promise.reject(new ClusterError({ status: 503, body: '' })))).toEqual({
      value: null,
      error: 'Service Unavailable.',
    })
    const redirect = new Response(null, { status: 302 })
    expect(await thrownFrom(() => settle(() => Promise.reject(redirect)))).toBe(redirect)
  })
})

describe('nullOnMissing', () => {
  it('answers null for a 404 or an id that is not one (400), and throws anything else', async () => {
    expect(await nullOnMissing(() => Promise.reject(new ClusterError({ status: 404 })))).toBeNull()
    expect(await nullOnMissing(() => Promise.reject(new ClusterError({ status: 400 })))).toBeNull()
    expect(await nullOnMissing(() => Promise.resolve('x'))).toBe('x')
    const thrown = await thrownFrom(() => nullOnMissing(() => Promise.reject(new ClusterError({ status: 500 }))))
    expect((thrown as ClusterError).status).toBe(500)
  })
})

describe('formErrorsOf', () => {
  it('a failure that is not a 400 is the catalogue message as a form error', () => {
    expect(formErrorsOf(new ClusterError({ status: 429 }))).toEqual({
      fieldErrors: {},
      formErrors: [new ClusterError({ status: 429 }).message],
    })
  })
})

describe('toastFromCluster', () => {
  it('titles the toast in the spec’s order and keeps the catalogue’s reason as its description', () => {
    expect(
      toastFromCluster(new ClusterError({ status: 400, body: { _error: { message: 'Quota exceeded' } } })),
    ).toMatchObject({ title: 'Quota exceeded', type: 'error' })
    expect(toastFromCluster(new ClusterError({ status: 400, body: { non_field_errors: ['Locked.'] } })).title).toBe(
      'Locked.',
    )
    const conflict = toastFromCluster(
      new ClusterError({ status: 409, body: { detail: 'Only a pending job can be committed.' } }),
    )
    expect(conflict).toEqual({
      title: 'Something went wrong',
      description: 'Only a pending job can be committed.',
      type: 'error',
    })
  })
})

describe('noneWhenDenied', () => {
  it('answers `none` for a 403 or a 404 and throws anything else', async () => {
    expect(await noneWhenDenied(() => Promise.reject(new ClusterError({ status: 403 })), [])).toEqual([])
    expect(await noneWhenDenied(() => Promise.reject(new ClusterError({ status: 404 })), [])).toEqual([])
    expect(await noneWhenDenied(() => Promise.resolve([1]), [])).toEqual([1])
    const thrown = await thrownFrom(() => noneWhenDenied(() => Promise.reject(new ClusterError({ status: 400 })), []))
    expect((thrown as ClusterError).status).toBe(400)
  })
})

describe('answerFromCluster', () => {
  it('answers a cluster failure in the route’s format with its status; other errors are thrown', async () => {
    const failed = (error: ClusterError) => new Response(error.message, { status: error.status })
    const conflict = new ClusterError({ status: 409, body: '' })
    const answer = await answerFromCluster(() => Promise.reject(conflict), failed)
    expect(answer.status).toBe(409)
    expect(await answer.text()).toBe(conflict.message)
    const ok = new Response('ok')
    expect(await answerFromCluster(() => Promise.resolve(ok), failed)).toBe(ok)
    const other = new Error('boom')
    expect(await thrownFrom(() => answerFromCluster(() => Promise.reject(other), failed))).toBe(other)
  })
})

describe('jsonFromCluster', () => {
  it('answers JSON never stored; a cluster failure as {message} with its status; other errors are thrown', async () => {
    const ok = await jsonFromCluster(() => Promise.resolve({ choices: [], hasMore: false }))
    expect(ok.status).toBe(200)
    expect(ok.headers.get('Content-Type')).toBe('application/json; charset=utf-8')
    expect(ok.headers.get('Cache-Control')).toBe('private, no-store')
    expect(await ok.json()).toEqual({ choices: [], hasMore: false })
    const denied = new ClusterError({ status: 403, body: { detail: 'No.' } })
    const failed = await jsonFromCluster(() => Promise.reject(denied))
    expect(failed.status).toBe(403)
    expect(failed.headers.get('Cache-Control')).toBe('private, no-store')
    expect(await failed.json()).toEqual({ message: denied.message })
    const other = new Error('boom')
    expect(await thrownFrom(() => jsonFromCluster(() => Promise.reject(other)))).toBe(other)
  })
})

describe('toastOnFailure', () => {
  it('redirects back with the failure’s toast; a success is the run’s own answer', async () => {
    const failed = await toastOnFailure('/security/users?q=a', () =>
      Promise.reject(new ClusterError({ status: 403, body: { detail: 'No.' } })),
    )
    expect(failed.status).toBe(302)
    expect(failed.headers.get('Location')).toBe('/security/users?q=a')
    expect(failed.headers.get('Set-Cookie')).toBeTruthy()
    const ok = new Response(null, { status: 302, headers: { Location: '/done' } })
    expect(await toastOnFailure('/back', () => Promise.resolve(ok))).toBe(ok)
    const other = new Error('boom')
    expect(await thrownFrom(() => toastOnFailure('/back', () => Promise.reject(other)))).toBe(other)
  })
})
