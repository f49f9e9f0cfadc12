import { ADMIN_EMAIL, ADMIN_PASSWORD, E2E_CLUSTER_PORT } from './env'

/**
 * Before any spec: the org is made bigger than the seed, as a real org is (issue 33). Two projects
 * of 40 tables each, named to sort before every other project, so a picker or list that shows only
 * its first PICKER_LIMIT (50) tables cannot show the tables the specs make or the sample's: a spec
 * must find them as an operator would (a search, a filter, a page), and one that assumes "every
 * table is listed" fails on the first run, not only late in a long CI run.
 *
 * The local cluster is reached over HTTP, as the console reaches it (the webServer has started it).
 */
export const CROWD_PROJECTS = ['a_crowd_1', 'a_crowd_2']
export const CROWD_TABLES_PER_PROJECT = 40

export default async function globalSetup() {
  if (process.env.E2E_REUSE_SERVER === '1' && process.env.E2E_CROWD !== '1') return
  const base = `http://127.0.0.1:${E2E_CLUSTER_PORT}/config/v1`
  const login = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  })
  if (!login.ok) throw new Error(`global setup: login answered ${login.status}`)
  const body = (await login.json()) as { auth_token: { access_token: string }; orgs: { uuid: string }[] }
  const headers = { Authorization: `Bearer ${body.auth_token.access_token}`, 'Content-Type': 'application/json' }
  const org = body.orgs[0]!.uuid
  const post = async (path: string, payload: object) => {
    const response = await fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(payload) })
    if (!response.ok)
      throw new Error(`global setup: POST ${path} answered ${response.status}: ${await response.text()}`)
    return (await response.json()) as { uuid: string }
  }
  for (const name of CROWD_PROJECTS) {
    const project = await post(`/orgs/${org}/projects/`, {
      name,
      description: 'Tables that make the org bigger than the seed',
    })
    const tables = Array.from({ length: CROWD_TABLES_PER_PROJECT }, (_, i) => `crowd_${String(i).padStart(3, '0')}`)
    // a few at a time: the local cluster makes each table in its engine
    for (let i = 0; i < tables.length; i += 8) {
      await Promise.all(
        tables.slice(i, i + 8).map((table) => post(`/orgs/${org}/projects/${project.uuid}/tables/`, { name: table })),
      )
    }
  }
}
