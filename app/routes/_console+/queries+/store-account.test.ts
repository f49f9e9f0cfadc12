import { http } from 'msw'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN, clusterAdminLogin, clusterCall } from '#tests/cluster'
import { TEST_CLUSTER_URL } from '#tests/env'
import { server, useTestCluster } from '#tests/msw'
import { args, cookieFrom, get, loginAsAdmin, post, responseFrom, returnedOrThrown, unwrap } from '#tests/session'
import { forgetStore, NOT_GRANTED_MESSAGE, NOT_YOURS_MESSAGE } from '~/api/saved-queries.server'
import { clearReadCache } from '~/api/read-cache.server'
import { CONSOLE_PROJECT, SAVED_TABLE, STORE_ACCOUNT_NAME, STORE_ROLE } from '~/utils/console-store'
import { provisionStoreAccount } from '../../../../server/store-account'
import { action as resultAction } from '../result'
import { loader as tablesLoader } from '../data+/tables._index'
import { loader as newTableLoader } from '../data+/new-table'
import { loader as newRoleLoader } from '../security+/roles.new-role'
import { loader as inviteLoader } from '../security+/users.invite-new-user'
import { action as settingsAction, loader as settingsLoader } from '../profile+/settings'
import { action as editorAction, loader as editorLoader } from './_index'
import { clearResultCache } from '~/services/query/result-cache.server'
import { action as savedAction, loader as savedLoader } from './saved'

/*
 * Decision 105: the console reads and writes its store with its own service account and filters
 * by the signed-in user, so a user with fewer rights than an admin (a Reader of one project, made
 * through an invite) saves queries and keeps a history without any right on `cluster_console`,
 * and never sees another user's private query or history. The store is also left out of the
 * schema tree, table lists, pickers and scope choices, and found by a search that names it.
 */

const cluster = useTestCluster()

let admin: string
let reader: { cookie: string; uuid: string; token: string }
let readerProject: string
let accountToken: string

/** The store an older console made: its tables without the `visibility` column, one query saved then (shared, as all were). */
async function oldStore(): Promise<void> {
  const project = await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', {
    name: CONSOLE_PROJECT,
  })
  const table = await clusterCall<{ uuid: string }>('POST', `/config/v1/orgs/{org}/projects/${project.uuid}/tables/`, {
    name: SAVED_TABLE,
  })
  const text = (name: string) => ({ name, datatype: { type: 'string' } })
  await clusterCall('POST', `/config/v1/orgs/{org}/projects/${project.uuid}/tables/${table.uuid}/transforms/`, {
    name: `${SAVED_TABLE}_json`,
    type: 'json',
    settings: {
      is_default: true,
      output_columns: [
        {
          name: 'at',
          datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05.000Z07:00', resolution: 'ms' },
        },
        ...['id', 'name', 'sql', 'options', 'owner', 'owner_id'].map(text),
        { name: 'deleted', datatype: { type: 'uint8' } },
      ],
    },
  })
  const row = {
    at: new Date(Date.now() - 60_000).toISOString(),
    id: '00000000-0000-4000-8000-000000000105',
    name: 'Saved by an older console',
    sql: 'SELECT 105',
    options: '',
    owner: ADMIN.email,
    owner_id: 'someone-before',
    deleted: 0,
  }
  await clusterCall('POST', '/ingest/event', JSON.stringify([row]), {
    'x-hdx-table': `${CONSOLE_PROJECT}.${SAVED_TABLE}`,
    'x-hdx-transform': `${SAVED_TABLE}_json`,
    'content-type': 'application/json',
  })
}

/** A Reader of one project, as the invite form makes one (scope Project): invited, password set, signed in. */
async function invitedReader(email: string, projectId: string) {
  const { orgId } = await clusterAdminLogin()
  await clusterCall('POST', '/config/v1/invites/', {
    email,
    org: orgId,
    roles: ['reader'],
    scope_type: 'project',
    scope_id: projectId,
  })
  const link = cluster()
    .handler.state.outbox.filter((mail) => mail.to === email)
    .at(-1)!.link!
  const [, uuidb64, token] = /\/verifyaccount\/([^/]+)\/(\w+)/.exec(link)!
  const password = 'reader-password-105'
  await clusterCall('POST', '/config/v1/password_reset_confirm', {
    uuidb64,
    token,
    password,
    password_confirm: password,
  })
  const { action: loginAction } = await import('~/routes/_auth+/login')
  const login = await returnedOrThrown(() => loginAction(args(post('/login', { email, password }))))
  const signedIn = await fetch(`${TEST_CLUSTER_URL}/config/v1/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: email, password }),
  })
  const body = (await signedIn.json()) as { uuid: string; auth_token: { access_token: string } }
  return { cookie: cookieFrom(login as Response), uuid: body.uuid, token: body.auth_token.access_token }
}

beforeAll(async () => {
  admin = await loginAsAdmin()
  await oldStore()
  // the console's account, as server/index.ts makes it when it starts the local cluster
  accountToken = await provisionStoreAccount(TEST_CLUSTER_URL, ADMIN)
  process.env.CONSOLE_STORE_TOKEN = accountToken
  forgetStore()
  readerProject = (
    await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: 'reader_project' })
  ).uuid
  reader = await invitedReader('reader@store-account.test', readerProject)
})

afterAll(() => {
  delete process.env.CONSOLE_STORE_TOKEN
  forgetStore()
})

function save(fields: Record<string, string>, cookie: string) {
  return editorAction(
    args(
      post(
        '/queries?index',
        { sql: '', name: '', hdx_query_comment: '', hdx_query_max_rows: '', intent: 'save', ...fields },
        cookie,
      ),
    ),
  )
}

async function savedId(run: () => Promise<unknown>): Promise<string> {
  const response = await responseFrom(run)
  expect(response.status).toBe(302)
  return new URL(response.headers.get('Location')!, 'http://console.test').searchParams.get('saved')!
}

const savedTab = async (cookie: string, search = '') => savedLoader(args(get(`/queries/saved${search}`, cookie)))
const editor = async (cookie: string, search = '') => editorLoader(args(get(`/queries${search}`, cookie)))

/** The bearer tokens of the calls to the store's rows (`/query` and `/ingest/event`) while `run` runs. */
async function storeCallTokens(run: () => Promise<unknown>): Promise<string[]> {
  const tokens: string[] = []
  const watch = async ({ request }: { request: Request }) => {
    const body = await request.clone().text()
    const sql = new URL(request.url).searchParams.get('query') ?? body
    if (sql.includes(CONSOLE_PROJECT) || request.headers.get('x-hdx-table')?.startsWith(CONSOLE_PROJECT))
      tokens.push((request.headers.get('authorization') ?? '').replace(/^Bearer /, ''))
    return cluster().handler(request)
  }
  server.use(http.post(`${TEST_CLUSTER_URL}/query`, watch), http.post(`${TEST_CLUSTER_URL}/ingest/event`, watch))
  try {
    await run()
  } finally {
    server.resetHandlers()
  }
  return tokens
}

describe("the console's store account (decision 105)", () => {
  it('a store made before the account: a Reader is told an admin must set it up, without a 500', async () => {
    const { data, status } = unwrap(await save({ sql: 'SELECT 1', name: 'Too early' }, reader.cookie))
    expect(status).toBe(403)
    expect(data.save).toMatchObject({ name: 'Too early', formError: NOT_GRANTED_MESSAGE })
    const list = await savedTab(reader.cookie)
    expect(list.queries).toEqual([])
    expect(list.error).toBe(NOT_GRANTED_MESSAGE)
  })

  it("an admin's Turn on gives the account its role on the store's project only, and completes the older store", async () => {
    const response = await responseFrom(() =>
      settingsAction(args(post('/profile/settings', { intent: 'history-on' }, admin))),
    )
    expect(response.status).toBe(302)
    const roles = await clusterCall<{ results: { name: string; policies: { scope_type: string }[] }[] }>(
      'GET',
      `/config/v1/roles/?name=${STORE_ROLE}`,
    )
    expect(roles.results.map((role) => role.policies.map((policy) => policy.scope_type))).toEqual([['project']])
    const accounts = await clusterCall<{ results: { name: string; roles: string[] }[] }>(
      'GET',
      `/config/v1/service_accounts/?name=${STORE_ACCOUNT_NAME}`,
    )
    expect(accounts.results[0]!.roles).toEqual([STORE_ROLE])
    // the Reader's Settings say it is on (read with the account: the Reader cannot see the project)
    const settings = await settingsLoader(args(get('/profile/settings', reader.cookie)))
    expect(settings.history).toMatchObject({ state: 'on', isAccount: true })
  })

  it("a Reader of one project saves, sees their own and the shared queries and their history, not others' private ones", async () => {
    const adminPrivate = await savedId(() => save({ sql: 'SELECT 1 AS admins_own', name: 'Admin private' }, admin))
    const adminShared = await savedId(() =>
      save({ sql: 'SELECT 2 AS for_everyone', name: 'Admin shared', visibility: 'org' }, admin),
    )
    // the Reader's save and its reads go through the console's account, never the Reader's token
    let mine = ''
    const tokens = await storeCallTokens(async () => {
      mine = await savedId(() => save({ sql: 'SELECT 3 AS readers_own', name: 'Reader own' }, reader.cookie))
    })
    expect(tokens.length).toBeGreaterThan(0)
    expect(new Set(tokens)).toEqual(new Set([accountToken]))

    forgetStore() // read from the cluster, not this process's rows of late
    const theirs = await savedTab(reader.cookie)
    expect(theirs.error).toBeNull()
    expect(theirs.queries.map((query) => query.name).sort()).toEqual([
      'Admin shared',
      'Reader own',
      'Saved by an older console',
    ])
    expect(theirs.queries.find((query) => query.id === adminShared)).toMatchObject({ visibility: 'org' })
    expect(theirs.queries.find((query) => query.id === mine)).toMatchObject({ visibility: 'private' })
    // opened by its link, another user's private query is not found
    const opened = await editor(reader.cookie, `?saved=${adminPrivate}`)
    expect(opened.saved).toBeNull()
    expect(opened.savedError).toMatch(/not found/)
    expect((await editor(reader.cookie, `?saved=${adminShared}`)).saved).toMatchObject({ isShared: false })
    // and the admin does not see the Reader's private one
    const admins = await savedTab(admin)
    expect(admins.queries.map((query) => query.name)).toContain('Admin private')
    expect(admins.queries.map((query) => query.name)).not.toContain('Reader own')

    // a shared query is deleted by its owner only
    const refused = await responseFrom(() =>
      savedAction(args(post('/queries/saved', { intent: 'delete-saved-query', id: adminShared }, reader.cookie))),
    )
    expect(refused.status).toBe(302)
    const toast = /cc_toast=([^.;]+)/.exec(refused.headers.get('Set-Cookie') ?? '')?.[1] ?? ''
    expect(Buffer.from(toast, 'base64').toString('utf8')).toContain(NOT_YOURS_MESSAGE)
    expect((await savedTab(reader.cookie)).queries.map((query) => query.id)).toContain(adminShared)
  })

  it("a Reader's runs are their history, read through the account; another user's runs are not in it", async () => {
    clearResultCache()
    const run = async (sql: string, cookie: string) => {
      const response = await responseFrom(() => resultAction(args(post('/result', { sql }, cookie))))
      expect(response.status).toBe(302)
    }
    await run('SELECT 105 AS reader_ran_this', reader.cookie)
    await run('SELECT 105 AS admin_ran_this', admin)
    forgetStore()
    clearReadCache()
    const readers = await editor(reader.cookie)
    expect(readers.historyError).toBeNull()
    expect(readers.history.map((entry) => entry.sql)).toEqual(['SELECT 105 AS reader_ran_this'])
    const admins = await editor(admin)
    expect(admins.history.map((entry) => entry.sql)).toContain('SELECT 105 AS admin_ran_this')
    expect(admins.history.map((entry) => entry.sql)).not.toContain('SELECT 105 AS reader_ran_this')
  })

  it('the Reader was given no right on the store: the cluster refuses their own read of it', async () => {
    const answer = await fetch(
      `${TEST_CLUSTER_URL}/query?query=${encodeURIComponent(`SELECT count() FROM ${CONSOLE_PROJECT}.${SAVED_TABLE}`)}`,
      { method: 'POST', headers: { Authorization: `Bearer ${reader.token}` } },
    )
    expect(answer.status).toBe(403)
    const me = await fetch(`${TEST_CLUSTER_URL}/config/v1/users/current`, {
      headers: { Authorization: `Bearer ${reader.token}` },
    })
    expect(((await me.json()) as { roles: string[] }).roles).not.toContain(STORE_ROLE)
  })
})

describe("the console's store is not the user's data (decision 105)", () => {
  const hasStore = (names: string[]) => names.some((name) => name === CONSOLE_PROJECT)

  it('the schema tree leaves it out', async () => {
    const { schema } = await editor(admin)
    expect(schema?.projects.map((project) => project.name)).toContain('reader_project')
    expect(hasStore(schema!.projects.map((project) => project.name))).toBe(false)
  })

  it('the tables list leaves it out, and its counts, unless a search names it', async () => {
    const list = await tablesLoader(args(get('/data/tables', admin)))
    expect(list.rows.map((row) => row.projectName)).toContain('reader_project')
    expect(hasStore(list.rows.map((row) => row.projectName))).toBe(false)
    const projects = await clusterCall<{ count: number }>('GET', '/config/v1/orgs/{org}/projects/')
    expect(list.projectCount).toBe(projects.count - 1)
    const other = await tablesLoader(args(get('/data/tables?q=saved', admin)))
    expect(other.rows).toEqual([])
    const searched = await tablesLoader(args(get(`/data/tables?q=${CONSOLE_PROJECT}`, admin)))
    expect(searched.rows.map((row) => `${row.projectName}.${row.table?.name}`)).toContain(
      `${CONSOLE_PROJECT}.${SAVED_TABLE}`,
    )
  })

  it('the new table picker and the role and invite scope choices leave it out; a scope search that names it finds it', async () => {
    const table = await newTableLoader(args(get('/data/new-table', admin)))
    expect(hasStore(table.projects.map((project) => project.name))).toBe(false)
    const role = await newRoleLoader(args(get('/security/roles/new-role', admin)))
    expect(hasStore(role.scopes.map((scope) => scope.label))).toBe(false)
    const invite = await inviteLoader(args(get('/security/users/invite-new-user', admin)))
    expect(invite.scopes.map((scope) => scope.label)).toContain('reader_project')
    expect(hasStore(invite.scopes.map((scope) => scope.label))).toBe(false)
    const searched = await inviteLoader(args(get(`/security/users/invite-new-user?scope_q=${CONSOLE_PROJECT}`, admin)))
    expect(searched.scopes.map((scope) => scope.label)).toEqual(
      expect.arrayContaining([CONSOLE_PROJECT, `${CONSOLE_PROJECT}.${SAVED_TABLE}`]),
    )
  })
})
