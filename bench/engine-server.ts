/**
 * The least an HTTP front on the engine can cost: a bare node:http server in its own process that
 * runs each POST body as SQL on one chdb Session and answers the bytes (decision 054). No auth, no
 * checks, no records. The cluster bench gives it the same rows as the engine it compares `/query`
 * with, and times it beside the cluster, so a figure of `/query`'s added time can be set against
 * what the HTTP hop alone costs on the same machine in the same seconds.
 *
 *   POST /query               the body is the SQL (answered as CSV, or its own FORMAT)
 *   POST /insert?format=F     the body is rows in format F, into sample.web_logs
 *
 * Run by bench/cluster.ts: `node --import tsx bench/engine-server.ts <data dir>`; prints its port.
 */
import http from 'node:http'
import { Session } from 'chdb'
import { readWhole } from '../cluster/node-http'

const session = new Session(process.argv[2] ?? '')

const server = http.createServer(async (req, res) => {
  try {
    const body = await readWhole(req)
    const url = new URL(req.url ?? '/', 'http://engine')
    if (url.pathname === '/insert') {
      const format = url.searchParams.get('format') === 'CSVWithNames' ? 'CSVWithNames' : 'JSONEachRow'
      await session.insert({
        table: 'sample.web_logs',
        values: body,
        format,
        settings: { date_time_input_format: 'best_effort' },
      })
      res.writeHead(200, { 'content-length': 0 })
      res.end()
      return
    }
    const result = await session.queryAsync(body.toString('utf8'), { format: 'CSV' })
    const bytes = result.bytes()
    res.writeHead(200, { 'content-type': 'text/csv', 'content-length': bytes.byteLength })
    res.end(bytes)
  } catch (error) {
    const message = Buffer.from(String((error as Error).message ?? error))
    res.writeHead(500, { 'content-type': 'text/plain', 'content-length': message.byteLength })
    res.end(message)
  }
})

server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  console.log(`engine server on ${typeof address === 'object' && address ? address.port : 0}`)
})

process.on('SIGTERM', () => {
  server.close()
  server.closeAllConnections()
  session.close()
  process.exit(0)
})
