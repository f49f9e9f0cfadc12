import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { json, reply, replyOf, withBody } from './http'
import { nodeListener, NodeRequest, type ClusterRequest } from './node-http'
import { startTestCluster, type TestCluster } from './test-helpers'

/** Serves `handler` with the cluster's node listener on a loopback port; returns its base URL and a stop. */
async function serve(handler: (request: ClusterRequest) => Promise<Response>) {
  const server = http.createServer(nodeListener(handler, 'localhost'))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    base,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** One raw node:http exchange (fetch cannot send a GET with a body). */
function send(
  base: string,
  options: { method: string; path: string; headers?: Record<string, string>; body?: string },
) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const url = new URL(options.path, base)
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: options.method,
        headers: options.headers,
      },
      (response) => {
        let body = ''
        response.setEncoding('utf8')
        response.on('data', (chunk) => (body += chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }))
      },
    )
    request.on('error', reject)
    request.end(options.body)
  })
}

describe('the cluster over node:http (node-http.ts)', () => {
  it('hands a route the method, URL, headers (any case, repeats joined) and body, and writes a reply with its length', async () => {
    const server = await serve(async (request) =>
      json(
        {
          method: request.method,
          url: request.url,
          header: request.headers.get('X-Test'),
          missing: request.headers.get('x-none'),
          body: await request.text(),
        },
        201,
        { 'X-Extra': 'yes' },
      ),
    )
    try {
      const answer = await send(server.base, {
        method: 'POST',
        path: '/a/b?c=1',
        headers: { 'x-test': 'one', 'content-type': 'text/plain' },
        body: 'héllo',
      })
      expect(answer.status).toBe(201)
      expect(JSON.parse(answer.body)).toEqual({
        method: 'POST',
        url: expect.stringMatching(/\/a\/b\?c=1$/),
        header: 'one',
        missing: null,
        body: 'héllo',
      })
      expect(answer.headers['x-extra']).toBe('yes')
      expect(answer.headers['content-type']).toBe('application/json')
      expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body))
    } finally {
      await server.stop()
    }
  })

  it('passes a GET body in x-cluster-get-body, as in process, and gives the route no body', async () => {
    const server = await serve(async (request) =>
      json({ forwarded: request.headers.get('x-cluster-get-body'), body: await request.text() }),
    )
    try {
      const answer = await send(server.base, {
        method: 'GET',
        path: '/auth_logs',
        headers: { 'content-type': 'application/json', 'content-length': '12' },
        body: '{"user":"x"}',
      })
      expect(JSON.parse(answer.body)).toEqual({ forwarded: Buffer.from('{"user":"x"}').toString('base64'), body: '' })
    } finally {
      await server.stop()
    }
  })

  it('streams a Response made without reply(), HEAD without a body, drops the socket on Response.error(), 500 for a throw', async () => {
    const server = await serve(async (request) => {
      const path = new URL(request.url).pathname
      if (path === '/stream')
        return new Response(
          new ReadableStream({
            start: (c) => (
              c.enqueue(new TextEncoder().encode('a,')),
              c.enqueue(new TextEncoder().encode('b')),
              c.close()
            ),
          }),
          { headers: { 'Content-Type': 'text/csv' } },
        )
      if (path === '/head') return reply(null, 200, { 'x-kind': 'head' })
      if (path === '/drop') return Response.error()
      throw new Error('boom')
    })
    try {
      const streamed = await send(server.base, { method: 'GET', path: '/stream' })
      expect([streamed.status, streamed.body, streamed.headers['content-type']]).toEqual([200, 'a,b', 'text/csv'])
      const head = await send(server.base, { method: 'HEAD', path: '/head' })
      expect([head.status, head.body, head.headers['x-kind']]).toEqual([200, '', 'head'])
      await expect(send(server.base, { method: 'GET', path: '/drop' })).rejects.toThrow(/socket hang up|ECONNRESET/)
      const failed = await send(server.base, { method: 'GET', path: '/throw' })
      expect([failed.status, JSON.parse(failed.body)]).toEqual([500, { detail: 'Internal server error.' }])
    } finally {
      await server.stop()
    }
  })

  it('writes a reply made of parts as they are, with their whole length, and none to a HEAD (decision 090)', async () => {
    const parts = [
      Buffer.from('{"results":['),
      Buffer.from('"Zürich"'),
      Buffer.from(','),
      Buffer.from('"東京 🚀"'),
      Buffer.from(']}'),
    ]
    const server = await serve(async () => reply(parts, 200, { 'Content-Type': 'application/json' }))
    try {
      const answer = await send(server.base, { method: 'GET', path: '/list' })
      expect(JSON.parse(answer.body)).toEqual({ results: ['Zürich', '東京 🚀'] })
      expect(Number(answer.headers['content-length'])).toBe(Buffer.concat(parts).byteLength)
      const head = await send(server.base, { method: 'HEAD', path: '/list' })
      expect([head.status, head.body, Number(head.headers['content-length'])]).toEqual([
        200,
        '',
        Buffer.concat(parts).byteLength,
      ])
      // in process, the Response carries the same bytes
      expect(await withBody(reply(parts, 200, {})).text()).toBe(Buffer.concat(parts).toString('utf8'))
    } finally {
      await server.stop()
    }
  })

  it('aborts the request when the client goes away before its answer', async () => {
    let aborted: () => void = () => {}
    const sawAbort = new Promise<void>((resolve) => (aborted = resolve))
    const server = await serve(
      (request) =>
        new Promise<Response>((resolve) => {
          request.signal.addEventListener('abort', () => {
            aborted()
            resolve(json({}))
          })
        }),
    )
    try {
      const request = http.request(`${server.base}/query`, { method: 'POST' })
      request.on('error', () => {})
      request.end('SELECT sleep(3)')
      await new Promise((resolve) => setTimeout(resolve, 100))
      request.destroy()
      await sawAbort
    } finally {
      await server.stop()
    }
  })

  it('parses a multipart body as a Request would', async () => {
    const form = new FormData()
    form.append('name', 'codes')
    form.append('file', new Blob(['a,b\n1,2\n'], { type: 'text/csv' }), 'codes.csv')
    const web = new Request('http://x/', { method: 'POST', body: form })
    const bytes = Buffer.from(await web.arrayBuffer())
    const request = new NodeRequest(
      'POST',
      'http://x/',
      { get: (name) => (name.toLowerCase() === 'content-type' ? web.headers.get('content-type') : null) },
      bytes,
    )
    const parsed = await request.formData()
    expect(parsed.get('name')).toBe('codes')
    expect(await (parsed.get('file') as File).text()).toBe('a,b\n1,2\n')
    expect(Buffer.from(await request.arrayBuffer()).equals(bytes)).toBe(true)
  })

  describe('the cluster itself', () => {
    let cluster: TestCluster
    let server: Awaited<ReturnType<typeof serve>>
    beforeAll(async () => {
      cluster = await startTestCluster()
      server = await serve(cluster.handler)
    })
    afterAll(async () => {
      await server?.stop()
      await cluster?.close()
    })

    it('answers /query and the config API over node as it does in process', async () => {
      const auth = { authorization: `Bearer ${cluster.token}` }
      const overNode = await send(server.base, {
        method: 'POST',
        path: '/query',
        headers: auth,
        body: 'SELECT 1 + 1 AS two FORMAT JSONEachRow',
      })
      expect(overNode.status).toBe(200)
      expect(overNode.body).toBe('{"two":2}\n')
      expect(overNode.headers['x-clickhouse-format']).toBe('JSONEachRow')
      expect(overNode.headers['x-clickhouse-query-id']).toMatch(/^[0-9a-f-]{36}$/)
      expect(Number(overNode.headers['content-length'])).toBe(overNode.body.length)
      const inProcess = await cluster.handler(
        new Request('http://local/query', {
          method: 'POST',
          headers: auth,
          body: 'SELECT 1 + 1 AS two FORMAT JSONEachRow',
        }),
      )
      expect(await inProcess.text()).toBe(overNode.body)

      const projects = await send(server.base, {
        method: 'GET',
        path: `/config/v1/orgs/${cluster.orgId}/projects/`,
        headers: auth,
      })
      expect(projects.status).toBe(200)
      expect(JSON.parse(projects.body)).toHaveProperty('results')
      const refused = await send(server.base, { method: 'GET', path: `/config/v1/orgs/${cluster.orgId}/projects/` })
      expect(refused.status).toBe(401)
      expect(refused.headers['www-authenticate']).toBe('Bearer realm="api"')
    })

    it('makes a config answer for the node server without a body stream, and gives it its body in process (decision 087)', async () => {
      const path = `/config/v1/orgs/${cluster.orgId}/projects/`
      const headers = { authorization: `Bearer ${cluster.token}` }
      const forNode = await cluster.handler(
        new NodeRequest(
          'GET',
          `http://local${path}`,
          { get: (name) => headers[name.toLowerCase() as 'authorization'] ?? null },
          undefined,
        ),
      )
      // the node server writes the kept bytes; undici never built a stream for them
      expect(forNode.body).toBeNull()
      const kept = replyOf(forNode)!
      // a list is kept as the parts of its items' kept bytes (decision 090), its length their sum
      expect(Array.isArray(kept.body)).toBe(true)
      const bytes = Buffer.concat(kept.body as Uint8Array[])
      expect(JSON.parse(bytes.toString('utf8'))).toHaveProperty('results')
      expect(kept.headers['content-length']).toBe(bytes.byteLength)
      const inProcess = await cluster.handler(new Request(`http://local${path}`, { headers }))
      expect(inProcess.headers.get('content-type')).toBe('application/json')
      expect(await inProcess.text()).toBe(bytes.toString('utf8'))
      // over the wire: the same bytes
      const overNode = await send(server.base, { method: 'GET', path, headers })
      expect(overNode.body).toBe(bytes.toString('utf8'))
      // any other text answer is kept as its encoded bytes (encoded once: its length and what is written)
      const one = replyOf(
        await cluster.handler(
          new NodeRequest(
            'GET',
            `http://local/config/v1/orgs/${cluster.orgId}`,
            { get: (name) => headers[name.toLowerCase() as 'authorization'] ?? null },
            undefined,
          ),
        ),
      )!
      expect(one.body).toBeInstanceOf(Uint8Array)
      expect(one.headers['content-length']).toBe((one.body as Uint8Array).byteLength)
    })
  })
})
