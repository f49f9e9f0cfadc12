import http from 'node:http'

/**
 * One request over `agent` (keep-alive) with node:http, resolving once the whole answer is in: its
 * status, headers and, with `keepBody`, its bytes (otherwise they are read and dropped). Nothing is inflated
 * or parsed. The benches measure servers on the 2 cores they run on, so their own client has to cost
 * as little as it can: fetch takes about twice node:http's CPU per request and about 0.6 ms more per
 * round trip on loopback (decisions 046 and 047).
 */
export function httpSend(
  agent: http.Agent,
  url: URL,
  init: { method: string; headers?: Record<string, string>; body?: string | Buffer; keepBody?: boolean },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: init.method,
        headers: init.headers,
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => {
          if (init.keepBody) chunks.push(chunk)
        })
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        )
        response.on('error', reject)
      },
    )
    request.on('error', reject)
    request.end(init.body)
  })
}
