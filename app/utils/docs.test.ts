import { describe, expect, it } from 'vitest'
import type { RouteHandle } from './handle'
import { DOCS_TOPICS, docsLinks, type DocsTopic } from './docs'

// Every route module's `handle` (the console's routes; tests and `__` helpers are not routes).
const routes = import.meta.glob<{ handle?: RouteHandle }>(
  ['../routes/**/*.tsx', '!../routes/**/__*', '!../routes/**/*.test.*'],
  { eager: true },
)

/** The topic a route's handle gives for these params and loader data. */
function topicOf(file: string, params: Record<string, string> = {}, data: unknown = undefined): DocsTopic | undefined {
  const topic = routes[`../routes/${file}`]?.handle?.docsTopic
  return typeof topic === 'function' ? topic(params, data) : topic
}

describe('contextual Docs and API links (spec section 1, issue 35)', () => {
  it('every topic the spec names is the topic of at least one page', () => {
    const used = new Set<DocsTopic>()
    for (const module of Object.values(routes)) {
      const topic = module.handle?.docsTopic
      if (typeof topic === 'string') used.add(topic)
    }
    // the topics picked from a page's params or data
    for (const type of ['kafka', 'kinesis', 'siem'])
      used.add(topicOf('_console+/data+/tables.$tableId.source.edit.$type.$sourceId.tsx', { type })!)
    for (const kind of ['kafka', 'kinesis', 'siem', 'autobatch', null])
      used.add(topicOf('_console+/data+/new-ingest-source.tsx', {}, { kind })!)
    expect([...DOCS_TOPICS].filter((topic) => !used.has(topic))).toEqual([])
  })

  it('pages point at their own topic, not the table guide', () => {
    expect(topicOf('_console+/security+/users._index.tsx')).toBe('user')
    expect(topicOf('_console+/security+/users.$userId.edit-user.tsx')).toBe('user')
    expect(topicOf('_console+/security+/roles.new-role.tsx')).toBe('role')
    expect(topicOf('_console+/data+/new-transform.tsx')).toBe('transform')
    expect(topicOf('_console+/data+/tables.$tableId.transform.edit.$transformId.tsx')).toBe('transform')
    expect(topicOf('_console+/data+/tables.$tableId.source.edit.$type.$sourceId.tsx', { type: 'kinesis' })).toBe(
      'kinesis',
    )
    expect(topicOf('_console+/data+/tables.$tableId.source.edit.$type.$sourceId.tsx', { type: 'siem' })).toBe('source')
    expect(topicOf('_console+/data+/new-ingest-source.tsx', {}, { kind: 'autobatch' })).toBe('autoBatch')
    expect(topicOf('_console+/data+/new-ingest-source.tsx', {}, { kind: null })).toBe('source')
  })

  it('each topic has its own guide and API reference under the docs address', () => {
    const links = DOCS_TOPICS.map((topic) => docsLinks('https://docs.example/', topic)!)
    expect(new Set(links.map((link) => link.docs)).size).toBe(DOCS_TOPICS.length)
    expect(docsLinks('https://docs.example/', 'kafka')).toEqual({
      docs: 'https://docs.example/docs/kafka-streaming-ingest',
      api: 'https://docs.example/reference/sources_kafka_list',
    })
    expect(docsLinks('https://docs.example', undefined)).toBeNull()
  })
})
