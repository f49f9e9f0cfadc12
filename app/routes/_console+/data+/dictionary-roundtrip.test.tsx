/**
 * Issue 32, dictionaries: a dictionary made by another tool (its columns in its own order with their
 * own keys, unknown settings keys, a format or layout the form's lists lack, null, "", absent keys),
 * opened in its edit page and saved unchanged, stays exactly as the cluster holds it; a change writes
 * only its own place. Dictionaries are generated, created on the local cluster, loaded by the edit
 * loader, rendered on the server and posted as a browser without scripts posts the form (decisions
 * 072 and 073).
 */
import { ChakraProvider } from '@chakra-ui/react'
import fc from 'fast-check'
import { json, maybe, text } from '#tests/arbitraries'
import { renderToString } from 'react-dom/server'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { clusterAdminLogin, clusterCall } from '#tests/cluster'
import { TEST_CLUSTER_URL, TEST_CONSOLE_URL } from '#tests/env'
import { formEntries } from '#tests/form-entries'
import { useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin, returnedOrThrown } from '#tests/session'
import { system } from '~/theme'
import { DictionaryEditor } from './__dictionary-editor'
import { action, loader } from './dictionaries.$projectId.$dictionaryId.edit-dictionary'
import { getZodConstraint } from '@conform-to/zod/v4'
import { DictionaryNewFormSchema } from '~/schemas/dictionary'

// The editor outside a Remix app: its router parts as the plain elements they render.
vi.mock('@remix-run/react', async (importOriginal) =>
  (await import('#tests/remix-plain')).plainRemixReact(importOriginal),
)

useTestCluster()

/** The files' columns (the header of each); a dictionary names them in any order. */
const COLUMNS: Record<string, string> = { id: 'uint64', code: 'string', label: 'string', score: 'float64' }
const FILES: Record<string, { format: string[]; content: string }> = {
  'geo.csv': {
    format: ['CSVWithNames'],
    content: 'id,code,label,score\n1,fr,France,1.5\n2,jp,Japan,2\n',
  },
  'geo.tsv': {
    // TabSeparatedWithNames: the engine's name for TSVWithNames, which the form's list does not hold
    format: ['TSVWithNames', 'TabSeparatedWithNames'],
    content: 'id\tcode\tlabel\tscore\n1\tfr\tFrance\t1.5\n2\tjp\tJapan\t2\n',
  },
}

let cookie: string
let projectId: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
  projectId = (await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: 'rt_dicts' }))
    .uuid
  const { token, orgId } = await clusterAdminLogin()
  for (const [name, file] of Object.entries(FILES)) {
    const form = new FormData()
    form.append('name', name)
    form.append('file', new File([file.content], name, { type: 'text/plain' }))
    const response = await fetch(
      `${TEST_CLUSTER_URL}/config/v1/orgs/${orgId}/projects/${projectId}/dictionaries/files/`,
      { method: 'POST', body: form, headers: { Authorization: `Bearer ${token}` } },
    )
    if (!response.ok) throw new Error(`upload ${name}: ${response.status} ${await response.text()}`)
  }
})

type Stored = Record<string, unknown> & { uuid: string }
const strip = ({ modified: _m, ...rest }: Stored) => rest
const dictionariesPath = () => `/config/v1/orgs/{org}/projects/${projectId}/dictionaries/`

/** Opens the dictionary's edit page, renders its form, posts it with `change` applied; returns the action's result. */
async function save(dictionaryId: string, change = (e: [string, string][]) => e) {
  const params = { projectId, dictionaryId }
  const url = `/data/dictionaries/${projectId}/${dictionaryId}/edit-dictionary`
  const page = await loader(args(get(url, cookie), params))
  const html = renderToString(
    <ChakraProvider value={system}>
      <DictionaryEditor
        projects={[page.project]}
        files={page.files}
        fixedProject={page.project}
        constraint={page.constraint}
        defaultValue={page.values}
        submitLabel="Save dictionary"
        cancelTo="/data/dictionaries"
      />
    </ChakraProvider>,
  )
  const body = new FormData()
  for (const [name, value] of change(formEntries(html, 'dictionary-editor'))) body.append(name, value)
  const request = new Request(`${TEST_CONSOLE_URL}${url}`, { method: 'POST', body, headers: { Cookie: cookie } })
  const result = await returnedOrThrown(() => action(args(request, params)))
  return result instanceof Response ? result.status : JSON.stringify((result as { data?: unknown }).data ?? result)
}

// ---------------------------------------------------------------------------------------------
// Dictionaries across the cluster's schema

const unknownKeys = fc.dictionary(fc.constantFrom('vendor_hint', 'x_extra', 'legacy'), json, { maxKeys: 2 })
const blankish = <T,>(value: fc.Arbitrary<T>) => maybe(fc.oneof(fc.constant(null), fc.constant(''), value))

const LAYOUTS = ['flat', 'hashed', 'complex_key_hashed', 'sparse_hashed', 'complex_key_sparse_hashed', 'direct']

const dictionaryArb = fc
  .record({
    description: blankish(text),
    file: fc.constantFrom(...Object.keys(FILES)),
    formatIndex: fc.nat(),
    layout: fc.constantFrom(...LAYOUTS),
    lifetime: maybe(fc.oneof(fc.constantFrom(0, 5, 300), fc.nat(86_400))),
    loadLevel: blankish(fc.constantFrom('lazy', 'eager', ' spaced ')),
    // every column of the file, in any order, each with its own keys
    columns: fc
      .shuffledSubarray(Object.keys(COLUMNS), { minLength: 4 })
      .chain((names) => fc.tuple(...names.map((name) => fc.tuple(fc.constant(name), unknownKeys, unknownKeys)))),
    keyCount: fc.integer({ min: 1, max: 2 }),
    settingsUnknown: unknownKeys,
  })
  .map(({ description, file, formatIndex, layout, lifetime, loadLevel, columns, keyCount, settingsUnknown }) => {
    const formats = FILES[file]!.format
    const outputColumns = columns.map(([name, extra, dtExtra]) => ({
      ...extra,
      name,
      datatype: { ...dtExtra, type: COLUMNS[name]! },
    }))
    return JSON.parse(
      JSON.stringify({
        description,
        settings: {
          ...settingsUnknown,
          filename: file,
          format: formats[formatIndex % formats.length],
          layout,
          lifetime_seconds: lifetime,
          primary_key: outputColumns.slice(0, keyCount).map((column) => column.name),
          output_columns: outputColumns,
          load_level: loadLevel,
        },
      }),
    ) as Record<string, unknown>
  })

let made = 0
async function createDictionary(dictionary: Record<string, unknown>) {
  made += 1
  const created = await clusterCall<Stored>('POST', dictionariesPath(), { ...dictionary, name: `rt_dict_${made}` })
  if (!created.uuid) throw new Error(`The cluster refused the dictionary: ${JSON.stringify(created)}`)
  return clusterCall<Stored>('GET', `${dictionariesPath()}${created.uuid}`)
}

const RUNS = Number(process.env.ROUNDTRIP_RUNS ?? 30)
const SEED = Number(process.env.ROUNDTRIP_SEED ?? 32)

describe('dictionary editor round trip (issue 32)', () => {
  it('keeps every generated dictionary exactly as stored when saved unchanged', async () => {
    let cases = 0
    await fc.assert(
      fc.asyncProperty(dictionaryArb, async (dictionary) => {
        cases += 1
        const before = await createDictionary(dictionary)
        expect(await save(before.uuid)).toBe(302)
        expect(strip(await clusterCall<Stored>('GET', `${dictionariesPath()}${before.uuid}`))).toEqual(strip(before))
      }),
      { numRuns: RUNS, seed: SEED },
    )
    console.info(`dictionary round trip: ${cases} generated dictionaries saved unchanged`)
  })

  it('the new dictionary form is a multipart form with an upload beside the file select (issue 35)', () => {
    const html = renderToString(
      <ChakraProvider value={system}>
        <DictionaryEditor
          projects={[{ uuid: projectId, name: 'rt_dicts' }]}
          files={[]}
          constraint={getZodConstraint(DictionaryNewFormSchema)}
          defaultValue={{ project: projectId }}
          submitLabel="Create dictionary"
          cancelTo="/data/dictionaries"
          canUpload
        />
      </ChakraProvider>,
    )
    expect(html).toMatch(/<form[^>]*enctype="multipart\/form-data"/i)
    expect(html).toMatch(/<input[^>]*type="file"[^>]*name="upload"|<input[^>]*name="upload"[^>]*type="file"/)
    // the select is not required in the browser: an upload alone is enough
    expect(html).not.toMatch(/<select[^>]*name="file"[^>]*required/)
  })

  it('changing the description writes only the description', async () => {
    await fc.assert(
      fc.asyncProperty(dictionaryArb, async (dictionary) => {
        const before = await createDictionary(dictionary)
        const status = await save(before.uuid, (entries) => [
          ...entries.filter(([key]) => key !== 'description'),
          ['description', 'Changed here'],
        ])
        expect(status).toBe(302)
        const after = await clusterCall<Stored>('GET', `${dictionariesPath()}${before.uuid}`)
        expect(strip(after)).toEqual({ ...strip(before), description: 'Changed here' })
      }),
      { numRuns: Math.max(3, Math.round(RUNS / 4)), seed: SEED },
    )
  })

  it('changing the lifetime writes only the lifetime', async () => {
    await fc.assert(
      fc.asyncProperty(dictionaryArb, async (dictionary) => {
        const before = await createDictionary(dictionary)
        const status = await save(before.uuid, (entries) => [
          ...entries.filter(([key]) => key !== 'lifetimeSeconds'),
          ['lifetimeSeconds', '61'],
        ])
        expect(status).toBe(302)
        const after = await clusterCall<Stored>('GET', `${dictionariesPath()}${before.uuid}`)
        const settings = before.settings as Record<string, unknown>
        expect(strip(after)).toEqual({ ...strip(before), settings: { ...settings, lifetime_seconds: 61 } })
      }),
      { numRuns: Math.max(3, Math.round(RUNS / 4)), seed: SEED },
    )
  })
})
