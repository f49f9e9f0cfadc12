import fc from 'fast-check'
import { expect, test } from './fixtures'
import { E2E_BASE_URL } from './env'
import { clusterCall } from './cluster-faults'
import {
  builtRoutes,
  concretePath,
  cookieHeader,
  createBucketByPost,
  createCredentialByPost,
  createTableByPost,
  createOtherObjects,
  createTableChildren,
  type BuiltRoute,
  type OtherObjects,
  type TableChildren,
} from './routes'

/**
 * Every route with an action, fuzzed through the real server with a real session against the local
 * cluster (issue 13): generated submissions (missing fields, wrong types, huge strings, unicode,
 * injection strings, duplicated fields, wrong intents). Each answer must not be a 5xx; a rejected
 * submission must answer with its form's errors and keep every text the user typed.
 *
 * Size: FUZZ_RUNS submissions per route (default 15 in `npm test`, `npm run fuzz` runs 250). The routes come
 * from the server build, so a new section's actions are fuzzed without touching this file.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 15)
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined

/** Actions that end or change the signed-in session itself: fuzzing them would sign the fuzzer out. */
const SKIPPED = new Set(['routes/logout'])

/**
 * A form field; `rendered`: the value the page rendered in it (a hidden field's, a select's chosen option), sent back
 * as is by a browser.
 */
type Field = {
  name: string
  kind: 'text' | 'password' | 'hidden' | 'checkbox' | 'select' | 'file' | 'other'
  rendered?: string
}

type FormInfo = { fields: Field[]; intents: string[] }

/** Each POST form of a page (from its server-rendered HTML), with its fields and intents. */
function postForms(html: string): FormInfo[] {
  const forms = [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)]
    .filter(([, attributes]) => /method="post"/i.test(attributes!))
    .map(([, , inner]) => formFields(inner!))
  return forms.length ? forms : [{ fields: [], intents: [] }]
}

/** The fields and intents of one form's HTML. */
function formFields(html: string): FormInfo {
  const fields = new Map<string, Field>()
  const intents = new Set<string>()
  for (const match of html.matchAll(/<(input|textarea|select|button)\b([^>]*)>/g)) {
    const [, tag, attributes] = match as unknown as [string, string, string]
    const end = (match.index ?? 0) + match[0].length
    const name = /\sname="([^"]+)"/.exec(attributes)?.[1]
    if (!name) continue
    // a button that sends the form elsewhere (Save query on /result posts to /queries): its intent is
    // that action's, not this one's
    if (tag === 'button' && /\sformaction=/i.test(attributes)) continue
    const value = /\svalue="([^"]*)"/.exec(attributes)?.[1]
    if (name === 'intent' && value) intents.add(value)
    if (tag === 'button') continue
    const type = /\stype="([^"]+)"/.exec(attributes)?.[1] ?? 'text'
    const kind: Field['kind'] =
      tag === 'textarea'
        ? 'text'
        : tag === 'select'
          ? 'select'
          : ['text', 'email', 'number', 'search', 'url', 'datetime-local', 'date', 'time'].includes(type)
            ? 'text'
            : ((['password', 'hidden', 'checkbox', 'file'].includes(type) ? type : 'other') as Field['kind'])
    const rendered =
      kind === 'hidden' || (tag === 'input' && kind === 'text')
        ? value
        : tag === 'select'
          ? selectedOption(html.slice(end, html.indexOf('</select>', end)))
          : undefined
    if (!fields.has(name)) fields.set(name, { name, kind, ...(rendered ? { rendered: unescapeHtml(rendered) } : {}) })
  }
  return { fields: [...fields.values()], intents: [...intents] }
}

/** The value of the option a `<select>`'s HTML (its options) renders chosen. */
function selectedOption(options: string): string | undefined {
  for (const [, attributes] of options.matchAll(/<option\b([^>]*)>/g))
    if (/\sselected(=""|\s|$)/.test(attributes!)) return /\svalue="([^"]*)"/.exec(attributes!)?.[1]
  return undefined
}

/** An HTML attribute's text as the browser reads it (what React escapes, back). */
function unescapeHtml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

const INJECTIONS = [
  "'; DROP TABLE sample.web_logs; --",
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '../../../../etc/passwd',
  '${7*7}{{7*7}}',
  'SELECT * FROM system.tables',
  '1 OR 1=1',
  '\u0000',
  '%00%ff',
  '{"__proto__":{"admin":true}}',
  '[]',
  '-1',
  '1e309',
  'NaN',
  '0x7fffffffffffffff',
  '   ',
  'é́ünïcödé 表 🚀',
]

const fieldValue = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.constantFrom(...INJECTIONS) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: fc.constantFrom('', 'true', 'false', 'on', 'null', 'undefined') },
  { weight: 1, arbitrary: fc.string({ minLength: 2000, maxLength: 20000 }) },
)

type Submission = { entries: [string, string][] }

/**
 * Shapes conform cannot read as sent (issue 37): each must be a 400 with the form kept on a form
 * with list rows, and never a 5xx anywhere. `rows` are the form's list fields (`columns[0].name`).
 */
type Shape =
  'none' | 'intent-text' | 'intent-array' | 'intent-huge' | 'intent-twice' | 'rows-huge' | 'rows-disorder' | 'rows-many'

const shape: fc.Arbitrary<Shape> = fc.oneof(
  { weight: 12, arbitrary: fc.constant<Shape>('none') },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Shape>(
      'intent-text',
      'intent-array',
      'intent-huge',
      'intent-twice',
      'rows-huge',
      'rows-disorder',
      'rows-many',
    ),
  },
)

/** The list fields of a form, by list: `columns[0].name` gives `columns` with the suffix `.name`. */
function listFields(fields: Field[]): { list: string; suffix: string }[] {
  return fields.flatMap(({ name }) => {
    const match = /^([^[\]]+)\[(\d+)\](.*)$/.exec(name)
    return match && match[2] === '0' ? [{ list: match[1]!, suffix: match[3]! }] : []
  })
}

/** `entries` made into `shape`: a malformed `__intent__`, or list rows at huge, disordered or too many indices. */
function shaped(entries: [string, string][], kind: Shape, fields: Field[]): [string, string][] {
  const rows = listFields(fields)
  const row = rows[0] ?? { list: 'columns', suffix: '.name' }
  const rowFields = rows.length ? rows.filter((r) => r.list === row.list) : [row]
  const at = (index: number): [string, string][] =>
    rowFields.map(({ list, suffix }) => [`${list}[${index}]${suffix}`, `row_${index}`])
  switch (kind) {
    case 'none':
      return entries
    case 'intent-text':
      return [...entries, ['__intent__', 'x']]
    case 'intent-array':
      return [...entries, ['__intent__', '[]']]
    case 'intent-huge':
      return [
        ...entries,
        ['__intent__', JSON.stringify({ type: 'remove', payload: { name: row.list, index: 99_999_999 } })],
      ]
    case 'intent-twice': {
      const intent = JSON.stringify({ type: 'validate', payload: {} })
      return [...entries, ['__intent__', intent], ['__intent__', intent]]
    }
    case 'rows-huge':
      return [...entries, ...at(0), ...at(99_999_999)]
    case 'rows-disorder':
      return [...entries, ...at(2), ...at(0), ...at(7)]
    case 'rows-many':
      return [...entries, ...Array.from({ length: 10_000 }, (_, index) => at(index)).flat()]
  }
}

function submissions({ fields, intents }: FormInfo): fc.Arbitrary<Submission & { form: FormInfo; shape: Shape }> {
  const names = fields.filter((field) => field.kind !== 'file').map((field) => field.name)
  const known = names.length ? fc.subarray(names) : fc.constant<string[]>([])
  return fc
    .record({
      present: known,
      values: fc.array(fieldValue, { minLength: names.length + 2, maxLength: names.length + 2 }),
      // a field the page rendered with a value is sent back as rendered one time in four (a hidden
      // `original` as the edit form holds it, a select's chosen option), the rest of the time fuzzed
      asRendered: fc.array(fc.nat(3), { minLength: names.length, maxLength: names.length }),
      extra: fc.array(
        fc.tuple(
          fc.oneof(
            fc.constantFrom('intent', '__proto__', 'constructor', 'id', 'token'),
            fc.string({ minLength: 1, maxLength: 12 }),
          ),
          fieldValue,
        ),
        { maxLength: 2 },
      ),
      duplicate: fc.boolean(),
      intent: fc.oneof(
        fc.constant(null),
        fc.constantFrom(...(intents.length ? intents : ['delete'])),
        fc.string({ maxLength: 12 }),
      ),
      shape,
    })
    .map(({ present, values, asRendered, extra, duplicate, intent, shape }) => {
      const rendered = (name: string) => {
        const index = names.indexOf(name)
        return asRendered[index] === 0 ? fields.find((field) => field.name === name)?.rendered : undefined
      }
      const entries: [string, string][] = present
        .filter((name) => name !== 'intent')
        .map((name, index) => [name, rendered(name) ?? values[index]!])
      if (duplicate && entries.length) entries.push([entries[0]![0], values[values.length - 1]!])
      if (intent !== null) entries.push(['intent', intent])
      return { entries: shaped([...entries, ...extra], shape, fields), form: { fields, intents }, shape }
    })
}

/** A route of a summary table's settings: its table must be a summary table. */
const isSummaryRoute = (route: { path: string }) => route.path.includes('/edit-summary-settings')

/** The cluster's default bucket (storage), if it has one. */
type Project = { uuid: string; name: string }

async function listProjects(): Promise<Project[]> {
  const answer = await clusterCall<Project[] | { results: Project[] }>(
    'GET',
    '/config/v1/orgs/{org}/projects/?page_size=1000',
  )
  return Array.isArray(answer) ? answer : answer.results
}

/**
 * Removes what the fuzzer made for itself: its projects (`fuzz_…`, made since `before`; their tables,
 * transforms, views, sources, functions and dictionaries go with them), its pool, role, user, bucket
 * and credential (a fuzzed delete may have removed one already). What a fuzzed
 * submission made (a random name) stays, as an operator's would.
 */
async function removeMadeHere(before: Set<string>, ids: Record<string, string>) {
  for (const project of await listProjects())
    if (!before.has(project.uuid) && project.name.startsWith('fuzz_'))
      await clusterCall('DELETE', `/config/v1/orgs/{org}/projects/${project.uuid}`)
  if (ids.poolId) await clusterCall('DELETE', `/config/v1/pools/${ids.poolId}`).catch(() => null)
  if (ids.roleId) await clusterCall('DELETE', `/config/v1/roles/${ids.roleId}`).catch(() => null)
  if (ids.userId) await clusterCall('DELETE', `/config/v1/users/${ids.userId}`).catch(() => null)
  if (ids.bucketId)
    await clusterCall('DELETE', `/config/v1/orgs/{org}/storages/${ids.bucketId}?force_operation=true`).catch(() => null)
  if (ids.credentialId)
    await clusterCall('DELETE', `/config/v1/orgs/{org}/credentials/${ids.credentialId}`).catch(() => null)
}

async function defaultStorageId(): Promise<string | undefined> {
  type Storage = { uuid: string; settings?: { is_default?: boolean } }
  const answer = await clusterCall<Storage[] | { results: Storage[] }>(
    'GET',
    '/config/v1/orgs/{org}/storages/?page_size=1000',
  )
  return (Array.isArray(answer) ? answer : answer.results).find((storage) => storage.settings?.is_default)?.uuid
}

/** How React writes text into HTML (text content and attribute values). */
function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;')
}

test.describe('fuzzing every action', () => {
  test.skip(
    ({ javaScriptEnabled }) => javaScriptEnabled === false,
    'one run is enough: the fuzzer sends plain HTTP, no browser',
  )
  test.setTimeout(30 * 60_000)

  test(`every action answers ${RUNS} generated submissions without a 5xx, keeping what was typed`, async ({
    sessionState,
  }) => {
    const cookie = cookieHeader(sessionState)
    const send = (url: string, entries: [string, string][]) =>
      fetch(`${E2E_BASE_URL}${url}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
        body: new URLSearchParams(entries).toString(),
      })
    // A connection dropped before any answer (CI, once: "fetch failed" on a plain submission right after
    // a 10,000-row one; its retry passed) is sent once more on a new connection and counted in the
    // report; a console that stopped answering fails the second time too.
    let resent = 0
    const post = (url: string, entries: [string, string][]) =>
      send(url, entries).catch(async (error: unknown) => {
        if (!(error instanceof TypeError)) throw error
        resent++
        await new Promise((resolve) => setTimeout(resolve, 250))
        return send(url, entries)
      })

    // FUZZ_ROUTE=<text>[,<text>…]: only the actions whose path contains one of them (to chase one failure)
    const only = process.env.FUZZ_ROUTE?.split(',').filter(Boolean)
    const routes = (await builtRoutes()).filter(
      (route) => route.hasAction && !SKIPPED.has(route.id) && (!only || only.some((part) => route.path.includes(part))),
    )
    expect(routes.length).toBeGreaterThan(only ? 0 : 5)
    // Things of its own for the actions on one (an unknown id would answer nothing but 404s): a table
    // (rename, truncate, settings, delete), a credential and a bucket that uses it (their edit forms)
    const needs = (param: string) => routes.some((route) => route.path.includes(`:${param}`))
    const ids: Record<string, string> = {}
    const projectsBefore = new Set((await listProjects()).map((project) => project.uuid))
    if (needs('tableId')) ids.tableId = await createTableByPost(cookie, 'fuzz')
    if (needs('credentialId') || needs('bucketId')) ids.credentialId = await createCredentialByPost(cookie, 'fuzz')
    if (needs('bucketId')) ids.bucketId = await createBucketByPost(cookie, 'fuzz', ids.credentialId)
    // a table of its own with a transform, a view, a kafka source and a summary table over it (their edit
    // forms); each of those actions is sent to its own thing's table
    // a table of its own with a transform, a view, a kafka source, an auto batch entry and a summary
    // table over it (their edit forms); in its project a function and a dictionary, and a pool, a role
    // and a user (theirs): each action is sent to its own thing
    const needsOthers = ['functionId', 'dictionaryId', 'name', 'poolId', 'roleId', 'userId'].some(needs)
    const children: TableChildren | undefined =
      needsOthers ||
      needs('transformId') ||
      needs('viewId') ||
      needs('sourceId') ||
      needs('projectId') ||
      routes.some(isSummaryRoute)
        ? await createTableChildren('fuzz')
        : undefined
    const others: OtherObjects | undefined = needsOthers
      ? await createOtherObjects('fuzz', children!.projectId)
      : undefined
    Object.assign(ids, others, children ? { projectId: children.projectId } : {})
    // each action with the ids it is sent to; the source edit action twice: on the kafka source and on
    // the auto batch entry (a different form and action path)
    const targets = routes.flatMap((route): { route: BuiltRoute; ids: Record<string, string> }[] => {
      if (!children) return [{ route, ids }]
      if (isSummaryRoute(route)) return [{ route, ids: { ...ids, tableId: children.summaryTableId } }]
      if (!/:(transformId|viewId|sourceId)\b/.test(route.path)) return [{ route, ids }]
      const own = { ...ids, ...children, type: 'kafka' }
      return route.path.includes(':sourceId')
        ? [
            { route, ids: own },
            { route, ids: { ...own, type: 'autobatch', sourceId: '0' } },
          ]
        : [{ route, ids: own }]
    })
    // a fuzzed save may make the fuzz bucket the default: the cluster's own is put back afterwards
    const defaultBucket = needs('bucketId') ? await defaultStorageId() : undefined
    const report: string[] = []
    const failures: string[] = []
    let total = 0
    for (const { route, ids: routeIds } of targets) {
      const startedAt = Date.now()
      const url = concretePath(route.path, routeIds)
      // the page's forms tell which fields to send (a resource route has no page: no fields)
      const forms = route.hasComponent
        ? postForms(await (await fetch(`${E2E_BASE_URL}${url}`, { headers: { Cookie: cookie } })).text())
        : postForms('')
      // every action's seed is printed first, so any failure (even one whose report was cut) replays
      // with FUZZ_SEED=<seed> FUZZ_ROUTE=<path>
      const seed = SEED ?? Math.floor(Math.random() * 0x7fffffff)
      console.log(`fuzz ${report.length + 1}/${targets.length}: ${url} seed ${seed}`)
      let tried = 0
      let rejected = 0
      let malformed = 0
      // the answers by status (a route whose every answer is a 404 or a refusal exercises little)
      const statuses = new Map<number, number>()
      // every action is fuzzed even when one fails, so a run lists every failing route
      const failure = await fc
        .assert(
          fc.asyncProperty(fc.constantFrom(...forms).chain(submissions), async ({ entries, form, shape }) => {
            tried++
            if (shape !== 'none') malformed++
            const answer = await post(url, entries)
            const body = await answer.text()
            statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
            expect(answer.status, `${url} answered ${answer.status}`).toBeLessThan(500)
            expect(answer.status, `${url}: the session ended`).not.toBe(401)
            // a form with list rows is a conform form: a shape it cannot read is refused, the form kept
            if (shape !== 'none' && listFields(form.fields).length)
              expect(answer.status, `${url}: a submission of shape ${shape} is refused`).toBe(400)
            if (answer.status === 400 && /<html/i.test(body)) {
              rejected++
              expect(body, `${url}: a rejected submission shows its errors`).toMatch(/aria-invalid="true"|role="alert"/)
              // what a browser sends: the form's own intent (a made-up intent is refused, with nothing to keep)
              const sentIntents = entries.filter(([name]) => name === 'intent').map(([, value]) => value)
              const isRealSubmit = form.intents.length
                ? sentIntents.length === 1 && form.intents.includes(sentIntents[0]!)
                : sentIntents.length === 0
              if (!isRealSubmit) return
              const counts = new Map<string, number>()
              for (const [name] of entries) counts.set(name, (counts.get(name) ?? 0) + 1)
              for (const [name, value] of entries) {
                const field = form.fields.find((f) => f.name === name)
                if (
                  field?.kind !== 'text' ||
                  counts.get(name)! > 1 ||
                  !value.trim() ||
                  value.includes('\u0000') ||
                  value.includes('\r')
                )
                  continue
                expect(body.includes(escapeHtml(value)), `${url}: the value typed in "${name}" is kept`).toBe(true)
              }
            }
          }),
          { numRuns: RUNS, seed, endOnFailure: true },
        )
        .then(
          () => null,
          (error: Error) =>
            (
              `${url} ` +
              `(seed ${seed}): ${String((error as { cause?: Error }).cause?.message ?? error.message).split('\n')[0]}\n ` +
              ` ${error.message.split('\n').find((line) => line.startsWith('Counterexample')) ?? ''}`
            ).slice(0, Number(process.env.FUZZ_REPORT_CHARS ?? 1500)),
        )
      if (failure) {
        failures.push(failure)
        console.log(`fuzz FAILED ${failure}`)
      }
      total += tried
      const answers = [...statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, count]) => `${status}×${count}`)
        .join(' ')
      const line =
        `${url.padEnd(48)} ${forms.length} form(s) ${String(tried).padStart(5)} ` +
        `tried, ${String(rejected).padStart(5)} rejected with field ` +
        `errors, ${String(malformed).padStart(4)} ` +
        `malformed, ${answers}, ${((Date.now() - startedAt) / 1000).toFixed(1).padStart(6)} ` +
        `s${failure ? ', FAILED' : ''}`
      report.push(line)
      // as it goes: a long run (`npm run fuzz`) that is stopped early still leaves its figures
      console.log(`fuzz ${report.length}/${targets.length}: ${line}`)
    }
    if (defaultBucket && (await defaultStorageId()) !== defaultBucket) {
      await clusterCall('PATCH', `/config/v1/orgs/{org}/storages/${defaultBucket}`, { settings: { is_default: true } })
      console.log(`fuzz: a fuzzed save made another bucket the default; ${defaultBucket} is the default again`)
    }
    await removeMadeHere(projectsBefore, ids)
    console.log(
      `fuzz: ${total} submissions over ${targets.length} actions, ${resent} sent again after a dropped connection\n${report.join('\n')}`,
    )
    test.info().annotations.push({
      type: 'fuzz',
      description: `${total} submissions, ${targets.length} actions, ${failures.length} failing, ${resent} sent again`,
    })
    expect(failures, failures.join('\n')).toEqual([])
    expect(total).toBeGreaterThanOrEqual(RUNS * targets.length)
  })
})
