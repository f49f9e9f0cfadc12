import '#tests/env'
import { describe, expect, it } from 'vitest'
import { catalogueMessage, ClusterError, mapFieldErrors, NO_RESPONSE_MESSAGE, toastMessage } from './errors.server'

describe('error catalogue (spec section 8), row by row', () => {
  it('408 time-out', () => {
    expect(new ClusterError({ status: 408 }).message).toBe('The request has timed out')
  })
  it('500 names the support email', () => {
    expect(new ClusterError({ status: 500, body: { detail: 'boom' }, supportEmail: 'help@example.com' }).message).toBe(
      'Internal server error. If this is reoccurring, please contact us at help@example.com',
    )
  })
  it('500 falls back to SUPPORT_EMAIL from the environment', () => {
    expect(catalogueMessage({ status: 500 })).toBe(
      'Internal server error. If this is reoccurring, please contact us at support@example.com',
    )
  })
  it.each([
    [501, 'Not Implemented.'],
    [502, 'Bad Gateway.'],
    [503, 'Service Unavailable.'],
    [504, 'Gateway Timeout.'],
  ])('%i from the cluster → %s', (status, message) => {
    expect(new ClusterError({ status, body: '' }).message).toBe(message)
  })
  it('401 shows the server detail', () => {
    expect(new ClusterError({ status: 401, body: { detail: 'Token expired.' } }).message).toBe('Token expired.')
  })
  it('401 without detail shows the status text', () => {
    expect(new ClusterError({ status: 401, statusText: 'Unauthorized', body: '' }).message).toBe('Unauthorized')
    expect(new ClusterError({ status: 401, body: {} }).message).toBe('Unauthorized')
  })
  it("401 on the version call: 'Version cannot be accessed'", () => {
    expect(new ClusterError({ status: 401, body: { detail: 'x' }, context: 'version' }).message).toBe(
      'Version cannot be accessed',
    )
  })
  it("401 on a monitoring query: 'This panel cannot be accessed'", () => {
    expect(new ClusterError({ status: 401, body: { detail: 'x' }, context: 'monitoring' }).message).toBe(
      'This panel cannot be accessed',
    )
  })
  it('403 shows the detail, else the message', () => {
    expect(new ClusterError({ status: 403, body: { detail: 'No permission.' } }).message).toBe('No permission.')
    expect(new ClusterError({ status: 403, body: { message: 'Forbidden here' } }).message).toBe('Forbidden here')
  })
  it("404: '404 Error: [status text].'", () => {
    expect(new ClusterError({ status: 404, statusText: 'Not Found', body: { detail: 'Not found.' } }).message).toBe(
      '404 Error: Not Found.',
    )
    // An empty status text (HTTP/2, some proxies) still reads well.
    expect(new ClusterError({ status: 404, statusText: '' }).message).toBe('404 Error: Not Found.')
  })
  it('406 shows the status text', () => {
    expect(new ClusterError({ status: 406, statusText: 'Not Acceptable' }).message).toBe('Not Acceptable')
  })
  it('no response at all: 503 with the "API unavailable" text', () => {
    const error = new ClusterError({ status: 503 })
    expect(error.status).toBe(503)
    expect(error.message).toBe(NO_RESPONSE_MESSAGE)
    expect(error.message).toBe("API unavailable at the moment, we'll be back shortly.")
  })
  it('400 on a ?query= request shows the response body', () => {
    const body = 'Code: 62. DB::Exception: Syntax error'
    expect(new ClusterError({ status: 400, body, url: 'http://c/query?query=SELEC' }).message).toBe(body)
    const json = { error: 'Code: 60. Unknown table', query: 'SELECT 1' }
    expect(new ClusterError({ status: 400, body: json, url: 'http://c/query/?query=x' }).message).toBe(
      JSON.stringify(json),
    )
  })
  it('400 elsewhere shows the general error', () => {
    expect(
      new ClusterError({ status: 400, body: { non_field_errors: ['Name taken.'] }, url: 'http://c/config/v1/x' })
        .message,
    ).toBe('Name taken.')
  })
})

describe('field-error mapping', () => {
  it('maps {field: [msgs]} to field errors', () => {
    expect(mapFieldErrors({ name: ['This field is required.'], description: ['Too long.', 'Bad.'] })).toEqual({
      fieldErrors: { name: ['This field is required.'], description: ['Too long.', 'Bad.'] },
      formErrors: [],
    })
  })
  it("maps a real cluster's role and invite refusals to their fields (issue 32)", () => {
    const texts = {
      name: ['This field must be unique.'],
      roles: ['Object with name=role_non-exist does not exist.'],
      email: ['User already exists. if trying to resend an invite, use /invites/<invite_id>/resend_invite.'],
    }
    for (const [field, messages] of Object.entries(texts)) {
      expect(mapFieldErrors({ [field]: messages })).toEqual({ fieldErrors: { [field]: messages }, formErrors: [] })
      expect(catalogueMessage({ status: 400, body: { [field]: messages } })).toBe(`${field}: ${messages[0]}`)
    }
  })
  it('folds non_field_errors, detail and error_description into one general error', () => {
    const mapped = mapFieldErrors({
      non_field_errors: ['A project with that name exists.'],
      detail: 'Check the input.',
      error_description: 'Invalid grant',
      name: ['Required.'],
    })
    expect(mapped.formErrors).toEqual(['A project with that name exists. Check the input. Invalid grant'])
    expect(mapped.fieldErrors).toEqual({ name: ['Required.'] })
  })
  it('flattens a nested settings object into dotted field names', () => {
    expect(
      mapFieldErrors({
        settings: {
          stream: { hot_data_max_age_minutes: ['Ensure this value is greater than or equal to 1.'] },
          age: { max_age_days: ['A valid integer is required.'] },
          sort_keys: ['Not valid JSON.'],
        },
      }).fieldErrors,
    ).toEqual({
      'settings.stream.hot_data_max_age_minutes': ['Ensure this value is greater than or equal to 1.'],
      'settings.age.max_age_days': ['A valid integer is required.'],
      'settings.sort_keys': ['Not valid JSON.'],
    })
  })
  it('names list items by index, as conform does', () => {
    expect(mapFieldErrors({ settings: { output_columns: [{}, { name: ['Required.'] }] } }).fieldErrors).toEqual({
      'settings.output_columns[1].name': ['Required.'],
    })
  })
  it('keeps a nested object’s own general error on that object', () => {
    expect(mapFieldErrors({ settings: { merge: { non_field_errors: ['Pools overlap.'] } } }).fieldErrors).toEqual({
      'settings.merge': ['Pools overlap.'],
    })
  })
  it('treats a plain string or list body as a general error', () => {
    expect(mapFieldErrors('Bad request')).toEqual({ fieldErrors: {}, formErrors: ['Bad request'] })
    expect(mapFieldErrors(['One', 'Two'])).toEqual({ fieldErrors: {}, formErrors: ['One Two'] })
    expect(mapFieldErrors(undefined)).toEqual({ fieldErrors: {}, formErrors: [] })
  })
})

describe('toast message', () => {
  it('reads _error.message first', () => {
    const error = new ClusterError({
      status: 400,
      body: { _error: { message: 'Quota exceeded' }, non_field_error: 'x' },
    })
    expect(toastMessage(error)).toBe('Quota exceeded')
  })
  it('then non_field_error', () => {
    expect(toastMessage(new ClusterError({ status: 400, body: { non_field_error: 'Locked.' } }))).toBe('Locked.')
    expect(toastMessage(new ClusterError({ status: 400, body: { non_field_errors: ['Locked.'] } }))).toBe('Locked.')
  })
  it('then the generic text', () => {
    expect(toastMessage(new ClusterError({ status: 500, body: { detail: 'x' } }))).toBe('Something went wrong')
    expect(toastMessage(new Error('boom'))).toBe('Something went wrong')
  })
})

describe('QueryError is a ClusterError (decision 103)', () => {
  it('a 400 whose message and mapped form error are the engine text, taken by every failure policy', async () => {
    const { QueryError } = await import('./query.server')
    const { formErrorsOf, settle } = await import('./policies.server')
    const text = 'Code: 62. DB::Exception: Syntax error'
    const error = new QueryError(text, 'SELEC 1')
    expect(error).toBeInstanceOf(ClusterError)
    expect(error).toMatchObject({ status: 400, message: text, query: 'SELEC 1', name: 'QueryError' })
    expect(error.mapped).toEqual({ fieldErrors: {}, formErrors: [text] })
    expect(formErrorsOf(error)).toEqual({ fieldErrors: {}, formErrors: [text] })
    expect(
      await settle(() => {
        throw error
      }),
    ).toEqual({ value: null, error: text })
  })
})
