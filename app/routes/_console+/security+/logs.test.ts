import { beforeAll, describe, expect, it } from 'vitest'
import { ADMIN, clusterCall } from '#tests/cluster'
import { TEST_CLUSTER_URL } from '#tests/env'
import { failWith, useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin, returnedOrThrown, unwrap } from '#tests/session'
import { loader as auditLoader } from './audit-trails'
import { loader as authLogsLoader } from './auth-logs'

useTestCluster()

let cookie: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
})

const today = () => new Date().toISOString().slice(0, 10)
const audit = (query = '') => auditLoader(args(get(`/security/audit-trails${query}`, cookie)))
const authLogs = (query = '') => authLogsLoader(args(get(`/security/auth-logs${query}`, cookie)))

describe('/security/audit-trails', () => {
  it('lists created, user, action and text, newest first, with paging in the URL', async () => {
    for (const name of ['audit_a', 'audit_b', 'audit_c'])
      await clusterCall('POST', '/config/v1/orgs/{org}/projects/', { name })
    const first = await audit('?pageSize=10')
    expect(first.total).toBeGreaterThanOrEqual(4)
    expect(first.rows[0]).toMatchObject({ user: ADMIN.email, action: 'add_project', text: 'Created project "audit_c"' })
    expect(first.rows[0]!.created).toMatch(/^\d{4}-\d{2}-\d{2}T/)

    const filtered = await audit('?action=add_project&pageSize=10')
    expect(filtered.rows.map((row) => row.text)).toEqual([
      'Created project "audit_c"',
      'Created project "audit_b"',
      'Created project "audit_a"',
    ])
    expect(filtered.isFiltered).toBe(true)

    // A page past the end (a stale link) shows the last page.
    const past = await audit('?action=add_project&page=5&pageSize=10')
    expect(past.page).toBe(1)
    expect(past.rows).toHaveLength(3)
  })

  it('filters by user and by time', async () => {
    const mine = await audit(`?user=${encodeURIComponent(ADMIN.email)}&action=add_project`)
    expect(mine.rows.length).toBeGreaterThan(0)
    const nobody = await audit('?user=nobody@example.com')
    expect(nobody.rows).toEqual([])
    expect(nobody.total).toBe(0)
    const old = await audit('?from=2001-01-01&to=2001-01-02')
    expect(old.rows).toEqual([])
    const now = await audit(`?from=${today()}&to=${today()}&action=add_project`)
    expect(now.rows.length).toBe(3)
  })

  it('answers a bad filter at its field without calling the cluster', async () => {
    const bad = await audit('?from=yesterday&to=2020-01-01')
    expect(bad.filterResult?.error).toMatchObject({ from: ['Enter a date as YYYY-MM-DD'] })
    const order = await audit('?from=2020-01-02&to=2020-01-01')
    expect(order.filterResult?.error).toMatchObject({ to: ['The “to” date must not be before the “from” date'] })
    expect(order.rows).toEqual([])
  })

  it("a 403 is the cluster's message inside the page", async () => {
    failWith(
      '/config/v1/orgs/:org/audit_trail',
      403,
      { detail: 'You do not have permission to perform this action.' },
      'get',
    )
    const thrown = unwrap<{ message: string }>(await returnedOrThrown(() => audit()))
    expect(thrown.status).toBe(403)
    expect(thrown.data.message).toBe('You do not have permission to perform this action.')
  })
})

describe('/security/auth-logs', () => {
  it('shows the last week by default with every column of the spec', async () => {
    await fetch(`${TEST_CLUSTER_URL}/config/v1/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: ADMIN.email, password: 'wrong-password' }),
    })
    const loaded = await authLogs()
    expect(loaded.filterResult).toBeNull()
    expect(loaded.values.limit).toBe('100')
    expect(loaded.values.to).toBe(today())
    const failed = loaded.rows.find((row) => row.type === 'LOGIN_ERROR')!
    expect(Object.keys(failed)).toEqual(
      expect.arrayContaining([
        'time',
        'timestamp',
        'username',
        'type',
        'realmId',
        'clientId',
        'userId',
        'sessionId',
        'ipAddress',
        'error',
        'details',
      ]),
    )
    expect(failed).toMatchObject({
      username: ADMIN.email,
      error: 'invalid_user_credentials',
      realmId: expect.any(String),
      ipAddress: expect.any(String),
    })
    expect(failed.time).toMatch(/^\d+$/)
    expect(loaded.rows.some((row) => row.type === 'LOGIN' && row.sessionId)).toBe(true)
  })

  it('requires from, to and limit (the spec messages) and keeps what was typed', async () => {
    const loaded = await authLogs('?from=&to=&limit=')
    expect(loaded.filterResult?.error).toEqual({
      from: ['From date is required'],
      to: ['To date is required'],
      limit: ['Limit is required'],
    })
    expect(loaded.rows).toEqual([])
    const bad = await authLogs(`?from=${today()}&to=${today()}&limit=0`)
    expect(bad.filterResult?.error).toEqual({ limit: ['Limit must be a whole number from 1 to 1000'] })
    expect(bad.filterResult?.initialValue).toMatchObject({ from: today(), limit: '0' })
  })

  it('sends the dates and the limit to the cluster', async () => {
    const one = await authLogs(`?from=${today()}&to=${today()}&limit=1`)
    expect(one.rows).toHaveLength(1)
    const old = await authLogs('?from=2001-01-01&to=2001-01-31&limit=50')
    expect(old.rows).toEqual([])
  })
})
