import http from 'node:http'
import path from 'node:path'
import { createCluster } from './index'
import { nodeListener } from './node-http'

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
  batchSourceWaitMs: process.env.CLUSTER_BATCH_SOURCE_WAIT_MS
    ? Number(process.env.CLUSTER_BATCH_SOURCE_WAIT_MS)
    : undefined,
  importDir: process.env.CLUSTER_IMPORT_DIR || undefined,
})

const server = http.createServer(nodeListener(handler, `${host}:${port}`))

server.listen(port, host, () => {
  const address = server.address()
  const actualPort = typeof address === 'object' && address ? address.port : port
  console.log(
    `Local cluster ${process.env.CLUSTER_VERSION ?? ''} listening on http://${host}:${actualPort}`.replace('  ', ' '),
  )
  console.log(`Data directory: ${dataDir}`)
  // the password itself is not printed: a start log is read by more people than the machine's operator
  console.log(`Admin login: ${handler.admin.email}, with the password kept in ${path.join(dataDir, 'admin.json')}`)
  console.log(`Outgoing mail (reset and invite links): ${path.join(dataDir, 'outbox.jsonl')}`)
  console.log(`Batch jobs read local files from: ${handler.state.options.importDir}`)
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
