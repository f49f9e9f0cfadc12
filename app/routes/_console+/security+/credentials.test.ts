import { beforeAll, describe, expect, it } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { TEST_CONSOLE_URL } from '#tests/env'
import { failWith, useTestCluster } from '#tests/msw'
import { args, asResponse, get, loginAsAdmin, returnedOrThrown, unwrap } from '#tests/session'
import { action as detailAction, loader as detailLoader } from './credentials.$credentialId._index'
import { loader as listLoader } from './credentials._index'
import { action as newAction, loader as newLoader } from './new-credential'

useTestCluster()

type FormReply = {
  result: {
    status?: string
    error?: Record<string, string[] | null>
    initialValue?: Record<string, any>
  }
}

let cookie: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
})

/** A multipart POST, as the credential form sends it (with a key file when given). */
function multipart(path: string, form: Record<string, string>, keyFile?: { name: string; text: string }) {
  const body = new FormData()
  for (const [key, value] of Object.entries(form)) body.append(key, value)
  body.append(
    'keyFile',
    keyFile ? new File([keyFile.text], keyFile.name, { type: 'application/json' }) : new File([], ''),
  )
  return new Request(`${TEST_CONSOLE_URL}${path}`, {
    method: 'POST',
    body,
    headers: { Cookie: cookie },
  })
}

const create = (form: Record<string, string>, keyFile?: { name: string; text: string }) =>
  returnedOrThrown(() => newAction(args(multipart('/security/new-credential', form, keyFile))))

async function createOk(form: Record<string, string>, keyFile?: { name: string; text: string }) {
  const response = asResponse(await create(form, keyFile))
  expect(response.status, JSON.stringify(response)).toBe(302)
  return response.headers.get('Location')!.replace('/security/credentials/', '')
}

const GCP_KEY = {
  type: 'service_account',
  project_id: 'my-gcp-project',
  private_key_id: 'abc123',
  private_key: '-----BEGIN PRIVATE KEY-----\nSECRET-PRIVATE-KEY\n-----END PRIVATE KEY-----\n',
  client_email: 'loader@my-gcp-project.iam.gserviceaccount.com',
  client_id: '1234567890',
  token_uri: 'https://oauth2.googleapis.com/token',
}

describe('/security/new-credential', () => {
  it("offers the cluster's credential types, each with its own fields", async () => {
    const loaded = await newLoader(args(get('/security/new-credential?type=aws_access_keys', cookie)))
    expect(loaded.type).toBe('aws_access_keys')
    const aws = loaded.types.find((type) => type.value === 'aws_access_keys')!
    expect(aws.fields.map((field) => [field.key, field.required, field.secret])).toEqual([
      ['access_key_id', true, false],
      ['secret_access_key', true, true],
      ['session_token', false, true],
    ])
    expect(loaded.types.some((type) => type.value === 'gcp_service_account_keys')).toBe(true)
  })

  it('answers Name and Type required; then the type-specific fields; secrets are not sent back', async () => {
    const first = unwrap<FormReply>(await create({ name: '', description: 'kept' }))
    expect(first.status).toBe(400)
    expect(first.data.result.error).toEqual({
      name: ['Name is required'],
      type: ['Type is required'],
    })
    expect(first.data.result.initialValue).toMatchObject({
      description: 'kept',
    })

    const second = unwrap<FormReply>(
      await create({
        name: 'keys',
        type: 'aws_access_keys',
        'details.secret_access_key': 'typed-secret',
      }),
    )
    expect(second.status).toBe(400)
    expect(second.data.result.error).toMatchObject({
      'details.access_key_id': ['Access key id is required'],
    })
    expect(second.data.result.error?.['']?.[0]).toMatch(/Secrets are not sent back/)
    expect(JSON.stringify(second.data)).not.toContain('typed-secret')
    expect(second.data.result.initialValue).toMatchObject({
      name: 'keys',
      type: 'aws_access_keys',
    })
  })

  it('without scripts, "Show the fields for this type" redisplays the form for the type with nothing checked or lost', async () => {
    const reply = unwrap<FormReply>(
      await create({
        intent: 'pick-type',
        name: 'half typed',
        type: 'azure_account_key',
      }),
    )
    expect(reply.status).toBe(200)
    expect(reply.data.result.error).toBeUndefined()
    expect(reply.data.result.initialValue).toMatchObject({
      name: 'half typed',
      type: 'azure_account_key',
    })
  })

  it('a GCP service account key file picks the type and fills its fields; the secret never comes back', async () => {
    const id = await createOk(
      { name: 'gcp_loader', description: 'from a key file' },
      { name: 'key.json', text: JSON.stringify(GCP_KEY) },
    )
    const stored = await clusterCall('GET', `/config/v1/orgs/{org}/credentials/${id}`)
    expect(stored).toMatchObject({
      type: 'gcp_service_account_keys',
      details: {
        project_id: 'my-gcp-project',
        client_email: GCP_KEY.client_email,
        private_key: '********',
      },
    })

    const loaded = await detailLoader(args(get(`/security/credentials/${id}`, cookie), { credentialId: id }))
    expect(loaded.credential).toMatchObject({
      name: 'gcp_loader',
      type: 'gcp_service_account_keys',
      cloud: 'gcp',
    })
    expect(loaded.formValues.details).toMatchObject({
      project_id: 'my-gcp-project',
      private_key_id: 'abc123',
    })
    expect(loaded.formValues.details).not.toHaveProperty('private_key')
    expect(loaded.stored).toEqual(['private_key'])
    expect(JSON.stringify(loaded)).not.toContain('SECRET-PRIVATE-KEY')
    expect(JSON.stringify(loaded)).not.toContain('********')

    const list = await listLoader(args(get('/security/credentials', cookie)))
    expect(list.rows.find((row) => row.uuid === id)).toEqual({
      uuid: id,
      name: 'gcp_loader',
      type: expect.stringMatching(/GCP/),
      cloud: 'gcp',
      description: 'from a key file',
    })
  })

  it('a key file that is not JSON is an error at the file, with what was typed kept', async () => {
    const reply = unwrap<FormReply>(
      await create({ name: 'bad_file', type: 'gcp_service_account_keys' }, { name: 'key.json', text: 'not json' }),
    )
    expect(reply.status).toBe(400)
    expect(reply.data.result.error?.keyFile).toEqual(['The key file must be a JSON object'])
    expect(reply.data.result.initialValue).toMatchObject({ name: 'bad_file' })
  })

  it("puts the cluster's errors on the fields: a taken name lands on Name", async () => {
    await createOk({
      name: 'twice',
      type: 'aws_role',
      'details.role_arn': 'arn:aws:iam::1:role/x',
    })
    const again = unwrap<FormReply>(
      await create({
        name: 'twice',
        type: 'aws_role',
        'details.role_arn': 'arn:aws:iam::1:role/x',
      }),
    )
    expect(again.status).toBe(400)
    expect(again.data.result.error?.name?.[0]).toMatch(/already exists/)
  })
})

describe('/security/credentials/[credentialId]', () => {
  const save = (id: string, form: Record<string, string>) =>
    returnedOrThrown(() =>
      detailAction(
        args(
          multipart(`/security/credentials/${id}`, {
            intent: 'save-credential',
            ...form,
          }),
          { credentialId: id },
        ),
      ),
    )

  it('a blank secret keeps the stored one; a typed one replaces it', async () => {
    const id = await createOk({
      name: 'rotate_me',
      type: 'aws_access_keys',
      'details.access_key_id': 'AKIA_OLD',
      'details.secret_access_key': 'old-secret',
    })
    const kept = asResponse(
      await save(id, {
        name: 'rotated',
        'details.access_key_id': 'AKIA_NEW',
        'details.secret_access_key': '',
      }),
    )
    expect(kept.status).toBe(302)
    const loaded = await detailLoader(args(get(`/security/credentials/${id}`, cookie), { credentialId: id }))
    expect(loaded.credential.name).toBe('rotated')
    expect(loaded.formValues.details.access_key_id).toBe('AKIA_NEW')
    expect(loaded.stored).toEqual(['secret_access_key'])

    // The cluster masks what it answers: it still holds a secret (the form sent none).
    const stored = await clusterCall('GET', `/config/v1/orgs/{org}/credentials/${id}`)
    expect(stored.details.secret_access_key).toBe('********')

    const cleared = unwrap<FormReply>(await save(id, { name: 'rotated', 'details.access_key_id': '' }))
    expect(cleared.status).toBe(400)
    expect(cleared.data.result.error).toEqual({
      'details.access_key_id': ['Access key id is required'],
    })
  })

  it('deletes on confirmation and says which buckets used it', async () => {
    const id = await createOk({
      name: 'used_by_bucket',
      type: 'aws_role',
      'details.role_arn': 'arn:aws:iam::1:role/y',
    })
    await clusterCall('POST', '/config/v1/orgs/{org}/storages/', {
      name: 'with_credential',
      settings: { bucket_name: 'b', cloud: 'aws', credential_id: id },
    })
    const confirming = await detailLoader(
      args(get(`/security/credentials/${id}?delete=${id}`, cookie), {
        credentialId: id,
      }),
    )
    expect(confirming.isConfirmingDelete).toBe(true)
    expect(confirming.buckets).toEqual([{ uuid: expect.any(String), name: 'with_credential' }])
    const deleted = asResponse(
      await returnedOrThrown(() =>
        detailAction(
          args(
            multipart(`/security/credentials/${id}`, {
              intent: 'delete-credential',
            }),
            { credentialId: id },
          ),
        ),
      ),
    )
    expect(deleted.status).toBe(302)
    expect(deleted.headers.get('Location')).toBe('/security/credentials')
    const missing = unwrap<{ message: string }>(
      await returnedOrThrown(() =>
        detailLoader(args(get(`/security/credentials/${id}`, cookie), { credentialId: id })),
      ),
    )
    expect(missing.status).toBe(404)
  })

  it("a 403 from the cluster is the cluster's message inside the page", async () => {
    failWith(
      '/config/v1/orgs/:org/credentials/',
      403,
      { detail: 'You do not have permission to perform this action.' },
      'get',
    )
    const thrown = unwrap<{ message: string }>(
      await returnedOrThrown(() => listLoader(args(get('/security/credentials', cookie)))),
    )
    expect(thrown.status).toBe(403)
    expect(thrown.data.message).toBe('You do not have permission to perform this action.')
  })
})
