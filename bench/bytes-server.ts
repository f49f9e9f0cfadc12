/**
 * The least an HTTP answer of a given size can cost on this machine: a bare node:http server in its
 * own process that answers GET with the bytes it was last given by PUT (decision 089). The scale
 * bench times it beside each cluster endpoint, with that endpoint's own answer, so an endpoint's p99
 * can be set against what the machine, the socket and the client cost for the same bytes in the
 * same seconds.
 *
 * Run by bench/scale.ts: `node --import tsx bench/bytes-server.ts`; prints its port.
 */
import http from 'node:http'
import { readWhole } from '../cluster/node-http'

let body: Buffer = Buffer.alloc(0)

const server = http.createServer((req, res) => {
  if (req.method === 'PUT') {
    void readWhole(req).then((bytes) => {
      body = bytes
      res.writeHead(204).end()
    })
    return
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body)
})
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  console.log(`bytes server on ${typeof address === 'object' && address ? address.port : 0}`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
