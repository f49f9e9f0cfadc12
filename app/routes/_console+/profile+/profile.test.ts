import { describe, expect, it } from 'vitest'
import { ADMIN } from '#tests/cluster'
import { useTestCluster } from '#tests/msw'
import { args, asResponse, cookieFrom, get, loginAsAdmin, post, returnedOrThrown, unwrap } from '#tests/session'
import { action as loginAction } from '../../_auth+/login'
import { action as changePasswordAction } from './change-password'
import { action as createTokenAction, loader as createTokenLoader } from './create-token'
import { action as settingsAction, loader as settingsLoader } from './settings'
import { action as localZoneAction } from '../../resources+/local-zone'
import { loader as layoutLoader } from '../_layout'
import { TIMEZONE_MESSAGE } from '~/schemas/auth'
import { clusterCall } from '#tests/cluster'
import { CONSOLE_PROJECT, HISTORY_TABLE } from '~/utils/console-store'
import { NOT_SET_UP_MESSAGE } from '~/api/saved-queries.server'

useTestCluster()

describe('profile settings', () => {
  it('shows the email, the timezone (Local by default) and the theme (System by default)', async () => {
    const cookie = await loginAsAdmin()
    const page = await settingsLoader(args(get('/profile/settings', cookie)))
    expect(page).toMatchObject({ email: ADMIN.email, timezone: 'Local', localZone: null, theme: 'system' })
    // every zone is offered, so a browser without scripts can show local time (issue 35)
    expect(page.zones.length).toBeGreaterThan(300)
    expect(page.zones).toContain('Europe/Paris')
    expect(page.zones).not.toContain('UTC')
  })

  it('saves the theme in its own cookie, which outlives the session', async () => {
    const cookie = await loginAsAdmin()
    const response = asResponse(
      await settingsAction(args(post('/profile/settings', { timezone: 'Local', theme: 'dark' }, cookie))),
    )
    expect(response.status).toBe(302)
    expect(response.headers.getSetCookie().some((line) => line.startsWith('cc_theme='))).toBe(true)
    const next = `${cookie}; ${cookieFrom(response)}`
    expect(await settingsLoader(args(get('/profile/settings', next)))).toMatchObject({ theme: 'dark' })
    const refused = unwrap(
      await settingsAction(args(post('/profile/settings', { timezone: 'Local', theme: 'sepia' }, cookie))),
    )
    expect(refused.status).toBe(400)
  })

  it('saves UTC in its own cookie and says so', async () => {
    const cookie = await loginAsAdmin()
    const response = asResponse(await settingsAction(args(post('/profile/settings', { timezone: 'UTC' }, cookie))))
    expect(response.status).toBe(302)
    const cookies = response.headers.getSetCookie()
    expect(cookies.some((line) => line.startsWith('cc_timezone='))).toBe(true)
    expect(cookies.some((line) => line.startsWith('cc_toast='))).toBe(true)
    const next = `${cookie}; ${cookieFrom(response)}`
    expect(await settingsLoader(args(get('/profile/settings', next)))).toMatchObject({ timezone: 'UTC' })
  })

  it('saves a zone of the list, shown on every page; refuses a zone it does not know with the message', async () => {
    const cookie = await loginAsAdmin()
    const response = asResponse(
      await settingsAction(args(post('/profile/settings', { timezone: 'Asia/Tokyo' }, cookie))),
    )
    expect(response.status).toBe(302)
    const next = `${cookie}; ${cookieFrom(response)}`
    expect(await settingsLoader(args(get('/profile/settings', next)))).toMatchObject({ timezone: 'Asia/Tokyo' })
    expect(await layoutLoader(args(get('/dashboard', next)))).toMatchObject({ timezone: 'Asia/Tokyo' })
    for (const timezone of ['Mars', 'Europe/Paris;x', '']) {
      const refused = unwrap(await settingsAction(args(post('/profile/settings', { timezone }, cookie))))
      expect(refused.status, timezone).toBe(400)
      expect(refused.data.result?.error).toEqual({ timezone: [TIMEZONE_MESSAGE] })
    }
  })

  it('remembers the zone the browser reports for Local, so the server renders Local times in it', async () => {
    const cookie = await loginAsAdmin()
    const answer = asResponse(
      await localZoneAction(args(post('/resources/local-zone', { zone: 'Europe/Paris' }, cookie))),
    )
    expect(answer.status).toBe(204)
    const line = answer.headers.get('Set-Cookie')!
    expect(line).toMatch(/^cc_local_zone=/)
    expect(line).toMatch(/HttpOnly/i)
    const next = `${cookie}; ${line.split(';')[0]}`
    expect(await layoutLoader(args(get('/dashboard', next)))).toMatchObject({
      timezone: 'Local',
      localZone: 'Europe/Paris',
    })
    const refused = asResponse(
      await localZoneAction(args(post('/resources/local-zone', { zone: 'Nowhere/Land' }, cookie))),
    )
    expect(refused.status).toBe(400)
    // signed in only
    const anonymous = await localZoneAction(args(post('/resources/local-zone', { zone: 'Europe/Paris' }))).catch(
      (error: unknown) => error,
    )
    expect(asResponse(anonymous).status).toBe(302)
  })
})

describe('change password', () => {
  it('uses the spec messages', async () => {
    const cookie = await loginAsAdmin()
    const empty = unwrap(await changePasswordAction(args(post('/profile/change-password', {}, cookie))))
    expect(empty.data.result.error).toMatchObject({
      current_password: ['You must enter the current password'],
      new_password: ['New password is required'],
      confirm_password: ['Repeat password is required'],
    })
    const mismatch = unwrap(
      await changePasswordAction(
        args(
          post(
            '/profile/change-password',
            { current_password: 'x', new_password: 'abcdefgh1', confirm_password: 'abcdefgh2' },
            cookie,
          ),
        ),
      ),
    )
    expect(mismatch.data.result.error).toMatchObject({ confirm_password: ['Passwords do not match'] })
  })

  it("shows the cluster's error at the field and never sends passwords back", async () => {
    const cookie = await loginAsAdmin()
    const form = {
      current_password: 'not-my-password',
      new_password: 'new-password-123',
      confirm_password: 'new-password-123',
    }
    const { data, status } = unwrap(await changePasswordAction(args(post('/profile/change-password', form, cookie))))
    expect(status).toBe(400)
    expect(data.result.error?.current_password).toEqual(['The current password is incorrect.'])
    expect(JSON.stringify(data)).not.toContain('new-password-123')
  })

  it('changes the password (success state), and the new one logs in', async () => {
    const cookie = await loginAsAdmin()
    const next = 'changed-password-456'
    const form = { current_password: ADMIN.password, new_password: next, confirm_password: next }
    const answer = asResponse(await changePasswordAction(args(post('/profile/change-password', form, cookie))))
    // a redirect to the success state, read with the new cookie
    expect(answer.status).toBe(302)
    expect(answer.headers.get('Location')).toBe('/profile/change-password?changed=1')
    // the change ended every session made with the old password (a stolen cookie too); this one
    // goes on with the new token in the answer's cookie
    const changedCookie = cookieFrom(answer)
    expect(changedCookie).not.toBe(cookie)
    await expect(createTokenLoader(args(get('/profile/create-token', cookie)))).rejects.toMatchObject({ status: 302 })
    expect((await createTokenLoader(args(get('/profile/create-token', changedCookie)))).serviceAccounts).toBeDefined()
    const login = asResponse(await loginAction(args(post('/login', { email: ADMIN.email, password: next }))))
    expect(login.status).toBe(302)
    // Put it back for the other tests in this file.
    await changePasswordAction(
      args(
        post(
          '/profile/change-password',
          { current_password: next, new_password: ADMIN.password, confirm_password: ADMIN.password },
          cookieFrom(login),
        ),
      ),
    )
  })
})

describe('create token', () => {
  it('creates a service account and shows its token once', async () => {
    const cookie = await loginAsAdmin()
    const { data } = unwrap(await createTokenAction(args(post('/profile/create-token', { name: 'ci-bot' }, cookie))))
    expect(data.issued?.name).toBe('ci-bot')
    expect(data.issued?.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
    const { serviceAccounts } = await createTokenLoader(args(get('/profile/create-token', cookie)))
    expect(serviceAccounts.map((account) => account.name)).toContain('ci-bot')
  })

  it('asks for an account or a name', async () => {
    const cookie = await loginAsAdmin()
    const { data, status } = unwrap(await createTokenAction(args(post('/profile/create-token', {}, cookie))))
    expect(status).toBe(400)
    expect(data.result.error?.name).toEqual(['Choose a service account or enter a name for a new one'])
  })

  it('names where the query history is kept, says what turning it on creates, and turns it on (issue 37)', async () => {
    const admin = await loginAsAdmin()
    const projectNames = async () =>
      (await clusterCall<{ results: { name: string }[] }>('GET', '/config/v1/orgs/{org}/projects/')).results.map(
        (project) => project.name,
      )
    expect(await settingsLoader(args(get('/profile/settings', admin)))).toMatchObject({
      history: { state: 'off', projectId: null },
    })
    // a user who may not create the project is told why, and nothing is created
    const email = 'reader@settings.test'
    const password = 'a-long-password-1'
    await clusterCall('POST', '/config/v1/users/', { email, password, roles: ['reader'] })
    const reader = cookieFrom(
      asResponse(await returnedOrThrown(() => loginAction(args(post('/login', { email, password }))))),
    )
    const refused = unwrap(await settingsAction(args(post('/profile/settings', { intent: 'history-on' }, reader))))
    expect(refused.status).toBe(403)
    expect(refused.data).toMatchObject({ historyError: NOT_SET_UP_MESSAGE })
    expect(await projectNames()).not.toContain(CONSOLE_PROJECT)
    // an administrator turns it on: the store is made, and the page says where it is
    const turned = asResponse(
      await returnedOrThrown(() => settingsAction(args(post('/profile/settings', { intent: 'history-on' }, admin)))),
    )
    expect(turned.status).toBe(302)
    expect(await projectNames()).toContain(CONSOLE_PROJECT)
    const after = await settingsLoader(args(get('/profile/settings', admin)))
    expect(after.history.state).toBe('on')
    expect(after.history.projectId).toMatch(/^[0-9a-f-]{36}$/)

    // another tool (or an operator) removed a table of the store: the history is off until Turn on
    // makes it again, in this process too, which had set the store up (CI: an empty project made by
    // another test left History silently off on every replica)
    const tables = (
      await clusterCall<{ results: { name: string; uuid: string }[] }>(
        'GET',
        `/config/v1/orgs/{org}/projects/${after.history.projectId}/tables/`,
      )
    ).results
    const history = tables.find((table) => table.name === HISTORY_TABLE)!
    await clusterCall('DELETE', `/config/v1/orgs/{org}/projects/${after.history.projectId}/tables/${history.uuid}`)
    expect(await settingsLoader(args(get('/profile/settings', admin)))).toMatchObject({
      history: { state: 'incomplete', missing: [HISTORY_TABLE] },
    })
    const again = asResponse(
      await returnedOrThrown(() => settingsAction(args(post('/profile/settings', { intent: 'history-on' }, admin)))),
    )
    expect(again.status).toBe(302)
    expect(await settingsLoader(args(get('/profile/settings', admin)))).toMatchObject({
      history: { state: 'on', missing: [] },
    })
  })
})
