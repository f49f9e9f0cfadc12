/**
 * Issue 32: a transform opened in its editor and saved unchanged stays exactly as the cluster holds
 * it. Transforms are generated across the whole schema (nested elements, unknown keys, null, "",
 * absent keys, every type and compression), created on the local cluster, loaded by the edit route,
 * rendered by the editor on the server, and the rendered form is posted back as a browser without
 * scripts posts it (decision 056).
 */
import { ChakraProvider } from '@chakra-ui/react'
import fc from 'fast-check'
import { forwardRef, type ComponentProps } from 'react'
import { renderToString } from 'react-dom/server'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { clusterCall } from '#tests/cluster'
import { cdnTransform } from '#tests/cdn-transform'
import { formEntries } from '#tests/form-entries'
import { useTestCluster } from '#tests/msw'
import { args, get, loginAsAdmin, returnedOrThrown } from '#tests/session'
import { TEST_CONSOLE_URL } from '#tests/env'
import { system } from '~/theme'
import { TransformEditor } from './__transform-editor'
import { transformConstraint } from './__transform-editor.server'
import { action as editAction, loader as editLoader } from './tables.$tableId.transform.edit.$transformId'
import { action as newAction } from './new-transform'

// The editor outside a Remix app: its router parts as the plain elements they render.
vi.mock('@remix-run/react', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@remix-run/react')>()
  return {
    ...actual,
    Form: forwardRef<HTMLFormElement, ComponentProps<'form'>>(function Form(props, ref) {
      return <form ref={ref} {...props} />
    }),
    Link: ({
      to,
      reloadDocument: _r,
      prefetch: _p,
      children,
      ...props
    }: ComponentProps<'a'> & { to: string; reloadDocument?: boolean; prefetch?: string }) => (
      <a href={to} {...props}>
        {children}
      </a>
    ),
    useNavigation: () => ({ state: 'idle' }),
    // the sample's ingest result reads where it is (outside a router: the root)
    useLocation: () => ({ pathname: '/', search: '', hash: '', state: null, key: 'default' }),
  }
})

useTestCluster()

let cookie: string
beforeAll(async () => {
  cookie = await loginAsAdmin()
})

// ---------------------------------------------------------------------------------------------
// The round trip

let tables = 0

async function newTable() {
  tables += 1
  const p = await clusterCall<{ uuid: string }>('POST', '/config/v1/orgs/{org}/projects/', { name: `rt_p${tables}` })
  const t = await clusterCall<{ uuid: string }>('POST', `/config/v1/orgs/{org}/projects/${p.uuid}/tables/`, {
    name: `rt_t${tables}`,
  })
  return { projectId: p.uuid, tableId: t.uuid }
}

type Stored = Record<string, unknown> & { uuid: string; settings: Record<string, unknown> }

/** Creates `transform`, opens it in the editor, saves the rendered form unchanged; returns the copies before and after. */
async function roundTrip(transform: Record<string, unknown>) {
  const { projectId, tableId } = await newTable()
  const path = `/config/v1/orgs/{org}/projects/${projectId}/tables/${tableId}/transforms/`
  const created = await clusterCall<Stored>('POST', path, transform)
  const before = await clusterCall<Stored>('GET', `${path}${created.uuid}`)
  const params = { tableId, transformId: created.uuid }
  const url = `/data/tables/${tableId}/transform/edit/${created.uuid}?project=${projectId}`
  const loaded = await editLoader(args(get(url, cookie), params))
  const html = renderToString(
    <ChakraProvider value={system}>
      <TransformEditor
        tables={loaded.tables}
        isTableFixed
        defaultValue={loaded.defaultValue}
        constraint={loaded.constraint}
        submitLabel="Save transform"
        cancelTo="/data/tables"
        canIngest
      />
    </ChakraProvider>,
  )
  const body = new FormData()
  for (const [name, value] of formEntries(html, 'transform-editor')) body.append(name, value)
  const request = new Request(`${TEST_CONSOLE_URL}${url}`, { method: 'POST', body, headers: { Cookie: cookie } })
  const result = await returnedOrThrown(() => editAction(args(request, params)))
  const after = await clusterCall<Stored>('GET', `${path}${created.uuid}`)
  return { before, after, result, html }
}

const strip = ({ modified: _m, ...rest }: Stored) => rest

// ---------------------------------------------------------------------------------------------
// Transforms across the whole schema

const text = fc.string({
  unit: fc.constantFrom('a', 'b', 'Z', '0', '-', '.', ' ', '\t', '"', "'", '<', '&', 'é', '\n', '{', ',', '\\'),
  maxLength: 8,
})
const json: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -1000, max: 1000 }),
    text,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'k', 'x_y', 'data'), tie('value'), { maxKeys: 3 }),
  ),
})).value
/** Keys no client of this console knows. */
const unknownKeys = fc.dictionary(fc.constantFrom('vendor_hint', 'x_extra', 'legacy', 'z'), json, { maxKeys: 2 })
/** `value` present, or absent (undefined, dropped by JSON). */
const maybe = <T,>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined })

const SCALARS = ['string', 'boolean', 'bool', 'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64']
const MORE_SCALARS = ['uint64', 'float', 'float32', 'float64', 'double', 'json', 'ip', 'uuid']

const elementArb: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{ el: Record<string, unknown> }>((tie) => ({
  el: fc.oneof(
    { depthSize: 'small', maxDepth: 2 },
    fc.record(
      { type: fc.constantFrom(...SCALARS, ...MORE_SCALARS), index: maybe(fc.boolean()), name: maybe(text) },
      { requiredKeys: ['type'] },
    ),
    fc.record({ type: fc.constant('array'), elements: fc.tuple(tie('el')) }),
    fc.record({ type: fc.constant('map'), elements: fc.tuple(tie('el'), tie('el')) }),
  ),
})).el

const sourceArb = fc.oneof(
  fc.constant(null),
  fc.record({ from_input_index: fc.nat(40) }),
  fc.record({ from_input_field: text }),
  fc.record({
    from_json_pointers: fc.array(
      text.map((t) => `/${t}`),
      { minLength: 1, maxLength: 2 },
    ),
  }),
  fc.record({ from_automatic_value: fc.constantFrom('receive_time', 'input_filename') }),
)

const commonDatatype = {
  index: maybe(fc.boolean()),
  index_options: maybe(fc.oneof(fc.constant(null), fc.record({ fulltext: fc.constant(false) }))),
  resolution: maybe(fc.constantFrom('ms', 's', 'seconds', 'milliseconds', null)),
  default: maybe(json),
  script: maybe(fc.oneof(fc.constant(null), text)),
  source: maybe(sourceArb),
  ignore: maybe(fc.boolean()),
  suppress: maybe(fc.boolean()),
  virtual: maybe(fc.boolean()),
  catch_all: maybe(fc.boolean()),
  denullify: maybe(fc.boolean()),
}

const datatypeArb = fc
  .tuple(
    fc.oneof(
      fc.record({
        type: fc.constantFrom(...SCALARS, ...MORE_SCALARS),
        format: maybe(fc.oneof(fc.constant(null), text)),
      }),
      fc.record({
        type: fc.constant('string'),
        index: fc.constant(true),
        index_options: fc.record({ fulltext: fc.boolean() }),
      }),
      fc.record({
        type: fc.constantFrom('datetime', 'datetime64'),
        format: fc.constantFrom('2006-01-02 15:04:05', ''),
      }),
      fc.record({ type: fc.constant('epoch'), format: fc.constantFrom('s', 'ms', 'us', 'ns', 'cs') }),
      fc.record({ type: fc.constant('array'), elements: fc.tuple(elementArb) }),
      fc.record({ type: fc.constant('map'), elements: fc.tuple(elementArb, elementArb) }),
    ),
    fc.record(commonDatatype, { requiredKeys: [] }),
    unknownKeys,
  )
  .map(([head, common, unknown]) => {
    const dt: Record<string, unknown> = { ...unknown, ...common, ...head }
    // the cluster's own rules: an empty datetime format only on a virtual column; fulltext on an indexed string
    if ((dt.type === 'datetime' || dt.type === 'datetime64') && !dt.format) dt.virtual = true
    if (isFulltext(dt) && dt.index === false) delete dt.index
    return dt
  })

const isFulltext = (dt: Record<string, unknown>) =>
  typeof dt.index_options === 'object' && dt.index_options !== null && 'fulltext' in dt.index_options
    ? Boolean((dt.index_options as { fulltext?: unknown }).fulltext)
    : false

const columnName = fc.stringMatching(/^[a-z][a-z0-9_.-]{0,12}$/)

const columnsArb = fc
  .uniqueArray(fc.tuple(columnName, datatypeArb, unknownKeys), { selector: ([name]) => name, maxLength: 8 })
  .map((rest) => rest.filter(([name]) => name !== 'timestamp'))

const strategy = maybe(
  fc.oneof(fc.constant(null), fc.record({ left: fc.constantFrom('', '.', '_', '['), right: fc.constantFrom('', ']') })),
)

const formatDetailsArb = fc
  .record(
    {
      delimiter: fc.constantFrom(',', '\t', '|', ';', ' '),
      quote: fc.constantFrom('"', "'", ''),
      escape: fc.constantFrom('"', '\\', ''),
      comment: fc.constantFrom('#', ''),
      skip_head: fc.nat(3),
      skip_comments: fc.boolean(),
      windows_ending: fc.boolean(),
      buffer_size: fc.constantFrom(4096, 1024),
      flattening: fc.record(
        {
          active: fc.boolean(),
          depth: fc.oneof(fc.constant(null), fc.nat(10)),
          map_flattening_strategy: strategy,
          slice_flattening_strategy: strategy,
        },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: [] },
  )
  .chain((fd) => unknownKeys.map((unknown) => ({ ...unknown, ...fd })))

export const transformArb = fc
  .record({
    name: fc.stringMatching(/^[a-z][a-z0-9_-]{0,15}$/),
    description: maybe(fc.oneof(fc.constant(null), text)),
    type: fc.constantFrom('json', 'csv', 'hdx'),
    primary: fc.oneof(
      fc.record({
        type: fc.constant('datetime'),
        format: fc.constantFrom('2006-01-02T15:04:05Z', '2006-01-02 15:04:05'),
      }),
      fc.record({ type: fc.constant('epoch'), format: fc.constantFrom('s', 'ms') }),
    ),
    primaryAt: fc.nat(8),
    columns: columnsArb,
    settings: fc.record(
      {
        is_default: maybe(fc.boolean()),
        compression: maybe(fc.constantFrom('none', '', 'gzip', 'zip', 'zlib', 'bzip2', 'gzip, bzip2')),
        null_values: maybe(fc.array(fc.constantFrom('-', 'null', '', ' ', 'N/A', 'a,b'), { maxLength: 3 })),
        sql_transform: maybe(fc.oneof(fc.constant(null), fc.constant('SELECT *, 1 AS one FROM {STREAM}'), text)),
        sample_data: maybe(fc.oneof(fc.constant(null), text, fc.dictionary(text, json, { maxKeys: 3 }))),
        format_details: maybe(formatDetailsArb),
        rate_limit: maybe(json),
      },
      { requiredKeys: [] },
    ),
    unknown: unknownKeys,
    settingsUnknown: unknownKeys,
  })
  .map(({ name, description, type, primary, primaryAt, columns, settings, unknown, settingsUnknown }) => {
    const output = columns.map(([n, datatype, extra]) => ({ ...extra, name: n, datatype }))
    output.splice(Math.min(primaryAt, output.length), 0, {
      name: 'timestamp',
      datatype: { ...primary, primary: true, source: { from_input_index: 0 } },
    })
    const transform: Record<string, unknown> = {
      ...unknown,
      name,
      ...(description === undefined ? {} : { description }),
      type,
      settings: { ...settingsUnknown, ...settings, output_columns: output },
    }
    // JSON drops the absent (undefined) keys, as a stored transform has none
    return JSON.parse(JSON.stringify(transform)) as Record<string, unknown>
  })

// ---------------------------------------------------------------------------------------------

describe('transform editor round trip (issue 32)', () => {
  it('keeps every generated transform exactly as stored when saved unchanged', async () => {
    let cases = 0
    await fc.assert(
      fc.asyncProperty(transformArb, async (transform) => {
        cases += 1
        const { before, after, result } = await roundTrip(transform)
        // a refusal says why (the form's errors) in the failure
        const refused =
          result instanceof Response ? undefined : (result as { data?: { result?: unknown } }).data?.result
        expect(refused).toBeUndefined()
        expect((result as Response).status).toBe(302)
        expect(strip(after)).toEqual(strip(before))
      }),
      { numRuns: Number(process.env.ROUNDTRIP_RUNS ?? 60), seed: Number(process.env.ROUNDTRIP_SEED ?? 32) },
    )
    console.info(`transform round trip: ${cases} generated transforms saved unchanged`)
  })
})

/** Posts the rendered form with `change` applied to its entries; returns the action's result. */
async function saveEdited(
  loaded: { projectId: string; tableId: string; uuid: string },
  change: (entries: [string, string][]) => [string, string][],
) {
  const params = { tableId: loaded.tableId, transformId: loaded.uuid }
  const url = `/data/tables/${loaded.tableId}/transform/edit/${loaded.uuid}?project=${loaded.projectId}`
  const page = await editLoader(args(get(url, cookie), params))
  const html = renderToString(
    <ChakraProvider value={system}>
      <TransformEditor
        tables={page.tables}
        isTableFixed
        defaultValue={page.defaultValue}
        constraint={page.constraint}
        submitLabel="Save transform"
        cancelTo="/data/tables"
      />
    </ChakraProvider>,
  )
  const body = new FormData()
  for (const [name, value] of change(formEntries(html, 'transform-editor'))) body.append(name, value)
  const request = new Request(`${TEST_CONSOLE_URL}${url}`, { method: 'POST', body, headers: { Cookie: cookie } })
  return { html, result: await returnedOrThrown(() => editAction(args(request, params))) }
}

const setEntry = (entries: [string, string][], name: string, value: string): [string, string][] => {
  const out = entries.filter(([key]) => key !== name)
  out.push([name, value])
  return out
}

describe('a change touches only what the operator changed (issue 32)', () => {
  it('renaming one column and the description writes just those onto the stored transform', async () => {
    let cases = 0
    await fc.assert(
      fc.asyncProperty(transformArb, fc.nat(), async (transform, pick) => {
        cases += 1
        const { projectId, tableId } = await newTable()
        const path = `/config/v1/orgs/{org}/projects/${projectId}/tables/${tableId}/transforms/`
        const created = await clusterCall<Stored>('POST', path, transform)
        const before = await clusterCall<Stored>('GET', `${path}${created.uuid}`)
        const columns = before.settings.output_columns as { name: string }[]
        const index = pick % columns.length
        const { result } = await saveEdited({ projectId, tableId, uuid: created.uuid }, (entries) =>
          setEntry(setEntry(entries, `columns[${index}].name`, 'Renamed_Col'), 'description', 'Changed here'),
        )
        expect(result instanceof Response ? result.status : result).toBe(302)
        const after = await clusterCall<Stored>('GET', `${path}${created.uuid}`)
        const expected = structuredClone(strip(before)) as Stored
        expected.description = 'Changed here'
        ;(expected.settings.output_columns as { name: string }[])[index]!.name = 'Renamed_Col'
        expect(strip(after)).toEqual(expected)
      }),
      { numRuns: Number(process.env.ROUNDTRIP_RUNS ?? 60) / 3, seed: Number(process.env.ROUNDTRIP_SEED ?? 32) },
    )
    console.info(`transform change: ${cases} generated transforms changed in one column and the description`)
  })

  it('a stored value that breaks a form rule is shown at its field and does not block other changes', async () => {
    const { projectId, tableId } = await newTable()
    const path = `/config/v1/orgs/{org}/projects/${projectId}/tables/${tableId}/transforms/`
    const created = await clusterCall<Stored>('POST', path, {
      name: 'akamai-datastream',
      type: 'json',
      settings: {
        output_columns: [
          { name: 'timestamp', datatype: { type: 'datetime', primary: true, format: '2006-01-02T15:04:05Z' } },
          { name: 'turn-around-time', datatype: { type: 'double', index: true } },
          { name: 'cache-status', datatype: { type: 'string' } },
        ],
      },
    })
    const at = { projectId, tableId, uuid: created.uuid }
    const { html, result } = await saveEdited(at, (entries) => setEntry(entries, 'description', 'CDN logs'))
    expect(
      html.includes('Stored value: Index cannot be enabled for double. Kept as stored unless you change it.'),
    ).toBe(true)
    expect(
      html.includes(
        'Stored value: Name may contain only alphanumerics and underscores. Kept as stored unless you change it.',
      ),
    ).toBe(true)
    expect(result instanceof Response ? result.status : result).toBe(302)
    const saved = await clusterCall<Stored>('GET', `${path}${created.uuid}`)
    expect(saved.name).toBe('akamai-datastream')
    expect(saved.description).toBe('CDN logs')
    expect((saved.settings.output_columns as unknown[])[1]).toEqual({
      name: 'turn-around-time',
      datatype: { type: 'double', index: true },
    })

    // what the operator types meets the form's rules, at the field
    const refused = await saveEdited(at, (entries) =>
      setEntry(setEntry(entries, 'columns[2].type', 'double'), 'name', 'akamai-datastream-2'),
    )
    const reply = refused.result as { data: { result: { error: Record<string, string[]> } } }
    expect(reply.data.result.error).toMatchObject({
      name: ['Name may contain only alphanumerics and underscores'],
      'columns[2].index': ['Index cannot be enabled for double'],
    })
    // the operator fixes the stored break: index off on the double column
    const fixed = await saveEdited(at, (entries) => entries.filter(([key]) => key !== 'columns[1].index'))
    expect(fixed.result instanceof Response ? fixed.result.status : fixed.result).toBe(302)
    const after = await clusterCall<Stored>('GET', `${path}${created.uuid}`)
    expect((after.settings.output_columns as unknown[])[1]).toEqual({
      name: 'turn-around-time',
      datatype: { type: 'double', index: false },
    })
  })
})

describe('a wide real-world-shaped transform (issue 32)', () => {
  it('a 110-column CDN transform made elsewhere is opened and saved unchanged: no difference', async () => {
    const transform = cdnTransform()
    const started = Date.now()
    const { before, after, result, html } = await roundTrip(transform)
    expect(result instanceof Response ? result.status : result).toBe(302)
    expect(strip(after)).toEqual(strip(before))
    // what the cluster holds is what was sent (less the ids it owns and the keys it does not know)
    const { uuid: _u, created: _c, url: _url, x_exported_by: _x, ...sent } = transform
    expect(strip(before)).toMatchObject(sent)
    console.info(
      `wide transform: ${(before.settings.output_columns as unknown[]).length} columns, editor ` +
        `HTML ${Math.round(html.length / 1024)} KiB, round trip ${Date.now() - started} ms`,
    )
  })
})

describe('a transform file loaded into the new-transform form (issue 32)', () => {
  it('is published exactly as the file says', async () => {
    const { projectId, tableId } = await newTable()
    const file = cdnTransform()
    const post = (body: FormData) =>
      returnedOrThrown(() =>
        newAction(
          args(
            new Request(`${TEST_CONSOLE_URL}/data/new-transform`, {
              method: 'POST',
              body,
              headers: { Cookie: cookie },
            }),
          ),
        ),
      )
    const upload = new FormData()
    upload.set('table', `${projectId}/${tableId}`)
    upload.set('intent', 'upload')
    upload.set('transformFile', new File([JSON.stringify(file)], 'cdn.json'))
    const loaded = (await post(upload)) as { data: { result: { initialValue: Record<string, unknown> } } }
    const html = renderToString(
      <ChakraProvider value={system}>
        <TransformEditor
          tables={[{ value: `${projectId}/${tableId}`, label: 'p.t' }]}
          isTableFixed={false}
          defaultValue={{ ...loaded.data.result.initialValue, table: `${projectId}/${tableId}` }}
          constraint={transformConstraint()}
          submitLabel="Publish transform"
          cancelTo="/data/tables"
        />
      </ChakraProvider>,
    )
    const body = new FormData()
    for (const [name, value] of formEntries(html, 'transform-editor')) body.append(name, value)
    const result = await post(body)
    expect(result instanceof Response ? result.status : result).toBe(302)
    const path = `/config/v1/orgs/{org}/projects/${projectId}/tables/${tableId}/transforms/`
    const listed = await clusterCall<{ results: Stored[] }>('GET', path)
    // the same as the file sent straight to the cluster (which fills `index` where a column has none)
    const other = await newTable()
    const direct = await clusterCall<Stored>(
      'POST',
      `/config/v1/orgs/{org}/projects/${other.projectId}/tables/${other.tableId}/transforms/`,
      file,
    )
    const published = listed.results[0]!
    expect(published.settings).toEqual(direct.settings)
    expect([published.name, published.description, published.type]).toEqual([
      direct.name,
      direct.description,
      direct.type,
    ])
  })
})
