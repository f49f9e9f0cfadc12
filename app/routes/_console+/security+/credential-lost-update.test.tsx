/**
 * Issue 50 point 5, credentials (decision 097): a non-secret detail saved by one operator meanwhile
 * is not overwritten by another's stale form (refused at the field, secrets never echoed); a change
 * of another field merges.
 */
import { ChakraProvider } from '@chakra-ui/react'
import { renderToString } from 'react-dom/server'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { TEST_CONSOLE_URL } from '#tests/env'
import { formEntries } from '#tests/form-entries'
import { answerOf, formPost, withField, type FormResult } from '#tests/lost-update'
import { useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin } from '#tests/session'
import { system } from '~/theme'
import { CredentialEditor } from './__credential-editor'
import { action, loader } from './credentials.$credentialId._index'

vi.mock('@remix-run/react', async (importOriginal) =>
  (await import('#tests/remix-plain')).plainRemixReact(importOriginal),
)

useTestCluster()

type Stored = Record<string, unknown> & { uuid: string; description?: string; details: Record<string, unknown> }
const CREDENTIALS = '/config/v1/orgs/{org}/credentials/'

let cookie: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
})

const url = (credentialId: string) => `/security/credentials/${credentialId}`
async function openForm(credentialId: string, lastResult?: FormResult) {
  const page = await loader(args(get(url(credentialId), cookie), { credentialId }))
  const html = renderToString(
    <ChakraProvider value={system}>
      <CredentialEditor
        types={page.types}
        defaultValue={page.formValues}
        stored={page.stored}
        fixedType={page.credential.type}
        lastResult={lastResult as never}
        submitLabel="Save credential"
        submitIntent="save-credential"
        pickTypeIntent="pick-type"
        cancelTo="/security/credentials"
      />
    </ChakraProvider>,
  )
  return formEntries(html, 'credential-editor', null)
}
const post = (credentialId: string, entries: [string, string][]) =>
  answerOf(() => action(args(formPost(url(credentialId), entries, cookie, TEST_CONSOLE_URL), { credentialId })))

let made = 0
const makeCredential = () =>
  clusterCall<Stored>('POST', CREDENTIALS, {
    name: `lu-credential-${++made}`,
    description: 'as made',
    type: 'aws_role',
    details: { role_arn: 'arn:aws:iam::1:role/a', external_id: 'e1' },
  })

describe('credential editor: no silent lost update (issue 50)', () => {
  it('refuses a detail changed meanwhile; merges the description', async () => {
    const credential = await makeCredential()
    const [first, second, third] = [
      await openForm(credential.uuid),
      await openForm(credential.uuid),
      await openForm(credential.uuid),
    ]
    expect((await post(credential.uuid, withField(first, 'details.external_id', 'e2'))).status).toBe(302)
    const refused = await post(credential.uuid, withField(second, 'details.external_id', 'e3'))
    expect(refused.status).toBe(409)
    expect(refused.result!.error!['details.external_id']![0]).toMatch(/now “e2”/)
    expect((await post(credential.uuid, withField(third, 'description', 'third says'))).status).toBe(302)
    const after = await clusterCall<Stored>('GET', `${CREDENTIALS}${credential.uuid}`)
    expect([after.details.external_id, after.description]).toEqual(['e2', 'third says'])
  })
})
