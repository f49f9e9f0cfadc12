import { clusterCall } from './cluster-faults'
import { expect, hydrated, test, uniqueName } from './fixtures'

/*
 * Decision 103: with scripts, the browser's check keeps what the action keeps. Each object is made
 * through the cluster's API holding a value the form's own rule refuses; its edit page, saved with
 * another field changed, keeps that value. Before, with scripts, the browser refused the save.
 */

type Made = { uuid: string; name: string }

test.describe('a stored value the form refuses, left unchanged, does not block a save', () => {
  test('pool: shards 0 and a memory in millibytes stay as stored when the description changes', async ({
    authedPage: page,
  }) => {
    // the cluster does not check shards and takes "m" quantities; the form asks for 1 or more, and bytes
    const pool = await clusterCall<Made>('POST', '/config/v1/pools/', {
      name: uniqueName('kept-pool').replace(/_/g, '-'),
      description: 'as made',
      type: 'ingest',
      settings: {
        k8s_deployment: { service: 'stream-peer', replicas: 1, cpu: 1, memory: '1500m', storage: '1Gi', shards: 0 },
      },
    })
    await page.goto(`/scale/pool/${pool.uuid}`)
    await expect(page.getByLabel('Memory', { exact: true })).toHaveValue('1500m')
    await hydrated(page)
    await page.getByLabel('Description', { exact: true }).fill('changed here')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(page.getByText(`Pool ${pool.name} saved`)).toBeVisible()
    const stored = await clusterCall<{ description: string; settings: { k8s_deployment: Record<string, unknown> } }>(
      'GET',
      `/config/v1/pools/${pool.uuid}`,
    )
    expect(stored.description).toBe('changed here')
    expect(stored.settings.k8s_deployment).toMatchObject({ memory: '1500m', shards: 0 })
  })

  test('credential: a required detail stored blank (a space) stays as stored when the description changes', async ({
    authedPage: page,
  }) => {
    // the cluster takes " " for a required detail; the form's rule trims it and asks for one
    const credential = await clusterCall<Made>('POST', '/config/v1/orgs/{org}/credentials/', {
      name: uniqueName('kept-cred'),
      description: '',
      type: 'aws_role',
      details: { role_arn: ' ' },
    })
    await page.goto(`/security/credentials/${credential.uuid}`)
    await hydrated(page)
    await page.getByLabel('Description', { exact: true }).fill('changed here')
    await page.getByRole('button', { name: 'Save credential' }).click()
    await expect(page.getByText(`Credential ${credential.name} saved`)).toBeVisible()
    const stored = await clusterCall<{ description: string; details: Record<string, unknown> }>(
      'GET',
      `/config/v1/orgs/{org}/credentials/${credential.uuid}`,
    )
    expect(stored.description).toBe('changed here')
    expect(stored.details.role_arn).toBe(' ')
  })
})
