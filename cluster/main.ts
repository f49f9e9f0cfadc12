import http from 'node:http'
import path from 'node:path'
import { createCluster } from './index'

/** `npm run cluster`: serves the local cluster over HTTP on loopback. */
const port = Number(process.env.CLUSTER_PORT ?? 8088)
const host = process.env.CLUSTER_HOST ?? '127.0.0.1'
const dataDir = process.env.CLUSTER_DATA_DIR ?? path.resolve(import.meta.dirname, '..', '.data', 'cluster')

if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`CLUSTER_PORT must be a port number (0-65535), got "${process.env.CLUSTER_PORT}"`)
  process.exit(1)
}

const handler = await createCluster({
  dataDir,
  version: process.env.CLUSTER_VERSION || undefined,
  adminEmail: process.env.CLUSTER_ADMIN_EMAIL || undefined,
  adminPassword: process.env.CLUSTER_ADMIN_PASSWORD || undefined,
  faults: process.env.CLUSTER_FAULTS === '1',
  seed: process.env.CLUSTER_SEED_ROWS ? { rows: Number(process.env.CLUSTER_SEED_ROWS) } : undefined,
})

const server = http.createServer(async (req, res) => {
  try {
    const url = `http://${req.headers.host ?? `${host}:${port}`}${req.url}`
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
    const headers = { ...(req.headers as Record<string, string>) }
    // The body, read whole here: every handler reads it whole, and a Buffer body costs less than
    // the web stream of the socket (about 2 ms for a 170 KB ingest batch).
    let raw: Buffer | undefined
    if (hasBody || Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding']) {
      const chunks: Buffer[] = []
      for await (const chunk of req) chunks.push(chunk as Buffer)
      raw = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)
    }
    // A GET with a body (auth_logs filters, as a real cluster takes them): fetch's Request cannot
    // carry one, so it travels in a header the config API reads.
    if (!hasBody && raw?.length && raw.length < 64 * 1024) headers['x-cluster-get-body'] = raw.toString('base64')
    // A client that goes away before the answer is written aborts the request (a query stops).
    const controller = new AbortController()
    res.on('close', () => {
      if (!res.writableFinished) controller.abort()
    })
    const request = new Request(url, { method: req.method, headers, signal: controller.signal, body: hasBody ? (raw as unknown as BodyInit) : undefined })
    const response = await handler(request)
    if (response.type === 'error') {
      req.socket.destroy() // the fault switch's "drop the connection"
      return
    }
    res.writeHead(response.status, Object.fromEntries(response.headers))
    if (response.body) for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk)
    res.end()
  } catch (error) {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ detail: 'Internal server error.' }))
    console.error(error)
  }
})

server.listen(port, host, () => {
  const address = server.address()
  const actualPort = typeof address === 'object' && address ? address.port : port
  console.log(`Local cluster ${process.env.CLUSTER_VERSION ?? ''} listening on http://${host}:${actualPort}`.replace('  ', ' '))
  console.log(`Data directory: ${dataDir}`)
  console.log(`Admin login: ${handler.admin.email} / ${handler.admin.password} (kept in ${path.join(dataDir, 'admin.json')})`)
})

let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return
    stopping = true
    server.close()
    server.closeAllConnections()
    await handler.close()
    process.exit(0)
  })
}
