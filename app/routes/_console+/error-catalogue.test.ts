import { delay, http, HttpResponse } from 'msw'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { TEST_CLUSTER_URL } from '#tests/env'
import { server, useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin, post, returnedOrThrown, unwrap } from '#tests/session'
import { setRequestTimeout } from '~/api/client.server'
import { mayStillApplyNote } from '~/api/policies.server'
import * as layout from './_layout'
import * as newTable from './data+/new-table'
import * as tableList from './data+/tables._index'
import * as userDetail from './security+/users.$userId.edit-user'

/*
 * The error catalogue (spec section 8) on every kind of page, row by row: a list (/data/tables), a
 * detail page (/security/users/:userId/edit-user) and a form (/data/new-table's action), each with
 * the cluster call it stands on failing as the row says. A failing page throws the catalogue's
 * message for its own ErrorBoundary (the shell's loader, which does not make that call, still
 * answers: the page around the error keeps working); a 401 ends the session with a redirect to
 * login that comes back to the page; a 400 on a form lands on its fields.
 */

useTestCluster()

const SUPPORT = 'Internal server error. If this is reoccurring, please contact us at support@example.com'

type Fault =
  { kind: 'status'; status: number; body?: unknown } | { kind: 'hang' } | { kind: 'drop' } | { kind: 'bad-json' }

type Row = {
  name: string
  fault: Fault
  /** What the failed page shows: the status its ErrorBoundary gets and the catalogue's message. */
  shown: { status: number; message: string }
}

const ROWS: Row[] = [
  {
    name: '403',
    fault: { kind: 'status', status: 403, body: { detail: 'You do not have permission to perform this action.' } },
    shown: { status: 403, message: 'You do not have permission to perform this action.' },
  },
  {
    name: '404',
    fault: { kind: 'status', status: 404, body: { detail: 'Not found.' } },
    shown: { status: 404, message: '404 Error: Not Found.' },
  },
  {
    name: '409',
    fault: { kind: 'status', status: 409, body: { detail: 'A job is already running on this table.' } },
    shown: { status: 409, message: 'A job is already running on this table.' },
  },
  {
    name: '429',
    fault: { kind: 'status', status: 429, body: { detail: 'Request was throttled. Expected available in 3 seconds.' } },
    shown: { status: 429, message: 'Request was throttled. Expected available in 3 seconds.' },
  },
  {
    name: '429 without a body',
    fault: { kind: 'status', status: 429 },
    shown: { status: 429, message: '429 Too Many Requests' },
  },
  {
    name: '500',
    fault: { kind: 'status', status: 500, body: { detail: 'boom' } },
    shown: { status: 500, message: SUPPORT },
  },
  {
    name: '502',
    fault: { kind: 'status', status: 502, body: '<html>bad gateway</html>' },
    shown: { status: 502, message: 'Bad Gateway.' },
  },
  {
    name: '503',
    fault: { kind: 'status', status: 503, body: '' },
    shown: { status: 503, message: 'Service Unavailable.' },
  },
  { name: 'time-out', fault: { kind: 'hang' }, shown: { status: 408, message: 'The request has timed out' } },
  {
    name: 'dropped connection',
    fault: { kind: 'drop' },
    shown: { status: 503, message: "API unavailable at the moment, we'll be back shortly." },
  },
  // A 2xx the console cannot read is the upstream's failure: the catalogue's 502, never an empty page.
  { name: 'bad JSON', fault: { kind: 'bad-json' }, shown: { status: 502, message: 'Bad Gateway.' } },
]

/** Every call matching `path` (and `method`) fails as `fault` says, until the test ends. */
function inject(path: string, method: 'get' | 'post', fault: Fault) {
  server.use(
    http[method](`${TEST_CLUSTER_URL}${path}`, async () => {
      switch (fault.kind) {
        case 'hang':
          await delay(1500)
          return HttpResponse.json({ late: true })
        case 'drop':
          return HttpResponse.error()
        case 'bad-json':
          return new HttpResponse('{"results": [{"uuid": "x", "name": ', {
            status: 200,
            headers: { 'Content-Type': 'application/json' },
          })
        case 'status':
          return typeof fault.body === 'string'
            ? new HttpResponse(fault.body, { status: fault.status, headers: { 'Content-Type': 'text/html' } })
            : fault.body === undefined
              ? new HttpResponse(null, { status: fault.status })
              : HttpResponse.json(fault.body as Record<string, unknown>, { status: fault.status })
      }
    }),
  )
}

let cookie: string
let projectId: string
let userId: string
let restoreTimeout: (() => void) | undefined

beforeAll(async () => {
  cookie = await loginAsAdmin()
  projectId = (
    await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: 'catalogue_project' })
  ).uuid
  userId = (
    await clusterCall<{ uuid: string }>('POST', '/config/v1/users/', {
      email: 'catalogue@example.com',
      password: 'a-long-password-1',
      roles: ['reader'],
    })
  ).uuid
})

afterEach(() => {
  restoreTimeout?.()
  restoreTimeout = undefined
})

type Page = {
  name: string
  url: () => string
  /** The cluster call the page stands on (an msw path) and its method. */
  call: () => { path: string; method: 'get' | 'post' }
  run: (request: Request) => Promise<unknown>
  request: () => Request
}

const PAGES: Page[] = [
  {
    name: 'list (/data/tables)',
    url: () => '/data/tables',
    call: () => ({ path: '/config/v1/orgs/:org/projects/', method: 'get' }),
    request: () => get('/data/tables', cookie),
    run: (request) => tableList.loader(args(request)),
  },
  {
    name: 'detail (/security/users/:userId/edit-user)',
    url: () => `/security/users/${userId}/edit-user`,
    call: () => ({ path: `/config/v1/users/${userId}`, method: 'get' }),
    request: () => get(`/security/users/${userId}/edit-user`, cookie),
    run: (request) => userDetail.loader(args(request, { userId })),
  },
  {
    name: 'form (/data/new-table, sent)',
    url: () => `/data/new-table?project=${projectId}`,
    call: () => ({ path: '/config/v1/orgs/:org/projects/:project/tables/', method: 'post' }),
    request: () =>
      post('/data/new-table', { project: projectId, name: 'catalogue_table' }, cookie, {
        Referer: `http://console.test/data/new-table?project=${projectId}`,
      }),
    run: (request) => newTable.action(args(request)),
  },
]

describe.each(PAGES.slice(0, 2))('the error catalogue on a $name', (page) => {
  it.each(ROWS)('$name: the page shows the catalogue message and the shell around it still loads', async (row) => {
    if (row.fault.kind === 'hang') restoreTimeout = setRequestTimeout(150)
    const { path, method } = page.call()
    inject(path, method, row.fault)
    const thrown = await returnedOrThrown(() => page.run(page.request()))
    expect(thrown, 'the failure is thrown for the route ErrorBoundary, not returned as a page').not.toBeInstanceOf(
      Error,
    )
    const { data, status } = unwrap<{ message: string; status: number }>(thrown)
    expect({ status, message: data.message }).toEqual(row.shown)
    // The page around it: the console shell's loader answers under the same fault.
    const shell = unwrap(await layout.loader(args(get(page.url(), cookie))))
    expect(shell.status).toBe(200)
    expect(shell.data.email).toBe('admin@example.com')
  })
})

/*
 * Forms keep what was typed on every failure (issue 37): the catalogue's message comes back as the
 * form's error (shown at the top of the form, focused), with the status of the failure, never thrown
 * to the route's error panel. One form of each kind: a create form (new table) and an edit form
 * (a user's roles), both through replyFromCluster.
 */
const FORMS: (Page & { typed: Record<string, unknown> })[] = [
  { ...PAGES[2]!, typed: { name: 'catalogue_table' } },
  {
    name: 'edit form (/security/users/:userId/edit-user, sent)',
    url: () => `/security/users/${userId}/edit-user`,
    call: () => ({ path: `/config/v1/users/${userId}/add_roles/`, method: 'post' }),
    request: () =>
      post(`/security/users/${userId}/edit-user`, { roles: 'publisher' }, cookie, {
        Referer: `http://console.test/security/users/${userId}/edit-user`,
      }),
    run: (request) => userDetail.action(args(request, { userId })),
    typed: { roles: 'publisher' },
  },
]

describe.each(FORMS)('the error catalogue on a $name', (form) => {
  it.each(ROWS)('$name: the form comes back as typed with the catalogue message as its error', async (row) => {
    if (row.fault.kind === 'hang') restoreTimeout = setRequestTimeout(150)
    const { path, method } = form.call()
    inject(path, method, row.fault)
    const answer = await returnedOrThrown(() => form.run(form.request()))
    const { data, status } = unwrap<{
      result: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> }
    }>(answer)
    // a time-out is answered 504, never 408, which a browser sends again (decision 098)
    expect(status).toBe(row.fault.kind === 'hang' ? 504 : row.shown.status)
    // a change that timed out also says it may still be applied (decision 098)
    expect(data.result.error?.['']).toEqual(
      row.fault.kind === 'hang' ? [row.shown.message, mayStillApplyNote(150)] : [row.shown.message],
    )
    expect(data.result.initialValue).toMatchObject(form.typed)
  })
})

describe.each(PAGES)('401 on a $name', (page) => {
  it('401: the session ends and login comes back to this page', async () => {
    const { path, method } = page.call()
    inject(path, method, { kind: 'status', status: 401, body: { detail: 'Token expired.' } })
    const thrown = await returnedOrThrown(() => page.run(page.request()))
    expect(thrown).toBeInstanceOf(Response)
    const response = thrown as Response
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe(`/login?prevUrl=${encodeURIComponent(page.url())}`)
    expect(response.headers.getSetCookie().some((line) => line.startsWith('cc_session=;'))).toBe(true)
  })
})

describe('400 with field errors', () => {
  it('on the form: the messages land on their fields, what was typed is kept, status 400', async () => {
    inject('/config/v1/orgs/:org/projects/:project/tables/', 'post', {
      kind: 'status',
      status: 400,
      body: { name: ['A table with this name already exists.'], non_field_errors: ['Check the name.'] },
    })
    const answer = unwrap<{ result: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> } }>(
      await PAGES[2]!.run(PAGES[2]!.request()),
    )
    expect(answer.status).toBe(400)
    expect(answer.data.result.error?.name).toEqual(['A table with this name already exists.'])
    expect(answer.data.result.error?.['']).toEqual(['Check the name.'])
    expect(answer.data.result.initialValue).toMatchObject({ name: 'catalogue_table' })
  })

  it.each(PAGES.slice(0, 2))(
    'on a $name: the general error, then the first field error, as the message',
    async (page) => {
      const { path, method } = page.call()
      inject(path, method, { kind: 'status', status: 400, body: { name: ['Bad name.'] } })
      const { data, status } = unwrap<{ message: string }>(await returnedOrThrown(() => page.run(page.request())))
      expect(status).toBe(400)
      expect(data.message).toBe('name: Bad name.')
      inject(path, method, { kind: 'status', status: 400, body: { detail: 'Invalid filter.', name: ['Bad name.'] } })
      const general = unwrap<{ message: string }>(await returnedOrThrown(() => page.run(page.request())))
      expect(general.data.message).toBe('Invalid filter.')
    },
  )
})

describe('every page in the matrix has its own ErrorBoundary (the shell stays around the error)', () => {
  it.each([
    ['list', tableList],
    ['detail', userDetail],
    ['form', newTable],
  ] as const)('%s', (_name, module) => {
    expect(typeof module.ErrorBoundary).toBe('function')
  })
})
