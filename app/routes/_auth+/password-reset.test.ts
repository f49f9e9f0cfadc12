import { describe, expect, it } from 'vitest'
import { ADMIN } from '#tests/cluster'
import { server, useTestCluster } from '#tests/msw'
import { args, asResponse, post, unwrap } from '#tests/session'
import { action as loginAction } from './login'
import { action } from './password-reset'
import { action as verifyAction } from './verifyaccount.$uuidb64.$token'

const cluster = useTestCluster()

describe('password reset', () => {
  it('asks for a well-formed email, word for word', async () => {
    expect(unwrap(await action(args(post('/password-reset', {})))).data.result.error).toMatchObject({
      email: ['Email is required'],
    })
    expect(unwrap(await action(args(post('/password-reset', { email: 'nope' })))).data.result.error).toMatchObject({
      email: ['Wrong email format'],
    })
  })

  it('sends at most 5 recovery emails an hour to one email: the 6th is a 429 with Retry-After and never reaches the cluster', async () => {
    const email = 'flooded@console.test'
    const ask = () =>
      action({ ...args(post('/password-reset', { email })), context: { clientAddress: '198.51.100.30' } })
    for (let i = 0; i < 5; i++) expect(unwrap(await ask()).data.sent).toBe(true)
    let calls = 0
    server.events.on('request:start', () => void calls++)
    const refused = await ask()
    server.events.removeAllListeners()
    const { data, status } = unwrap(refused)
    expect(status).toBe(429)
    expect(data.sent).toBe(false)
    expect(data.result.error?.['']).toEqual(['Too many recovery emails asked for. Try again in 60 minutes.'])
    expect(data.result.initialValue?.email).toBe(email)
    const { init } = refused as unknown as { init?: ResponseInit }
    expect(new Headers(init?.headers).get('Retry-After')).toBe('3600')
    expect(calls).toBe(0)
  })

  it('says the recovery email was sent', async () => {
    const { data, status } = unwrap(await action(args(post('/password-reset', { email: ADMIN.email }))))
    expect(status).toBe(200)
    expect(data.sent).toBe(true)
  })
})

describe('verify account (set password from the e-mail link)', () => {
  it('checks both passwords match', async () => {
    const request = post('/verifyaccount/x/y', {
      new_password: 'a-long-password-1',
      confirm_password: 'other-password-1',
    })
    const { data } = unwrap(await verifyAction(args(request, { uuidb64: 'x', token: 'y' })))
    expect(data.result.error).toMatchObject({ confirm_password: ['Passwords do not match'] })
  })

  it('shows a bad link as a form error', async () => {
    const request = post('/verifyaccount/x/y', {
      new_password: 'a-long-password-1',
      confirm_password: 'a-long-password-1',
    })
    const { data, status } = unwrap(await verifyAction(args(request, { uuidb64: 'eA', token: 'bad' })))
    expect(status).toBe(400)
    expect(data.result.error?.['']).toEqual(['The reset link is invalid or has expired.'])
  })

  it('sets the password from a real reset link, then the new password logs in', async () => {
    await action(args(post('/password-reset', { email: ADMIN.email })))
    // the link is in the cluster's outbox (no mail server), never in its log (issue 49)
    const mail = cluster()
      .handler.state.outbox.filter((m) => m.to === ADMIN.email)
      .at(-1)
    const [, uuidb64, token] = /\/verifyaccount\/([^/\s]+)\/([^/\s]+)/.exec(String(mail?.link))!
    expect(cluster().handler.state.logs.some((log) => String(log.message).includes(token!))).toBe(false)
    const newPassword = 'brand-new-password-42'
    const response = asResponse(
      await verifyAction(
        args(post(`/verifyaccount/${uuidb64}/${token}`, { new_password: newPassword, confirm_password: newPassword }), {
          uuidb64: uuidb64!,
          token: token!,
        }),
      ),
    )
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/login')
    expect(response.headers.get('Set-Cookie')).toMatch(/^cc_toast=/)
    const login = asResponse(await loginAction(args(post('/login', { email: ADMIN.email, password: newPassword }))))
    expect(login.status).toBe(302)
  })
})
