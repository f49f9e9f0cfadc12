import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import type { Server } from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ServerBuild } from '@remix-run/node'
import express from 'express'
import { runBeforeClose } from '../app/utils/before-close.server'
import { parseEnv, settleEnv } from '../app/utils/env.server'
import { closeGracefully, createBaseApp, createLogger } from './app'
import { startLocalCluster, type LocalCluster } from './local-cluster'
import { createRequestHandler } from './remix-handler'
import { provisionStoreAccount } from './store-account'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const isDev = process.argv.includes('--dev')
process.env.NODE_ENV ??= isDev ? 'development' : 'production'

function fail(message: string): never {
  console.error(`\n${message}\n`)
  process.exit(1)
}

/** Local mode keeps one generated secret in .data/session-secret so sessions survive restarts. */
function localSessionSecret(): string {
  const file = path.join(ROOT, '.data', 'session-secret')
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim()
    if (secret.length >= 16) return secret
  }
  mkdirSync(path.dirname(file), { recursive: true })
  const secret = randomBytes(32).toString('hex')
  writeFileSync(file, `${secret}\n`, { mode: 0o600 })
  return secret
}

async function main() {
  const initial = parseEnv(process.env)
  if (initial instanceof Error) fail(initial.message)

  let cluster: LocalCluster | undefined
  if (!initial.CLUSTER_URL) {
    process.env.SESSION_SECRET ??= localSessionSecret()
    console.log('CLUSTER_URL is not set: starting the local cluster…')
    try {
      // CLUSTER_PORT pins the local cluster's port (default: a free one), e.g. to share it with a second console
      cluster = await startLocalCluster(process.env.CLUSTER_PORT ? { port: Number(process.env.CLUSTER_PORT) } : {})
    } catch (error) {
      fail(`Could not start the local cluster: ${error instanceof Error ? error.message : String(error)}`)
    }
    process.env.CLUSTER_URL = cluster.url
    // the console's own account for its store (decision 105), unless one was given
    if (!process.env.CONSOLE_STORE_TOKEN) {
      try {
        process.env.CONSOLE_STORE_TOKEN = await provisionStoreAccount(cluster.url, cluster.admin)
      } catch (error) {
        console.warn(
          `The console's store account could not be made ` +
            `(${error instanceof Error ? error.message : String(error)}): saved queries and history ` +
            `use each user's own rights`,
        )
      }
    }
  }
  const env = parseEnv(process.env)
  if (env instanceof Error) fail(env.message)
  settleEnv()

  const logger = createLogger()

  let build: ServerBuild | (() => Promise<ServerBuild>)
  let closeVite: (() => Promise<void>) | undefined
  let basePath = ''
  let serveFiles: (app: express.Express) => void
  if (isDev) {
    const vite = await import('vite').then(({ createServer }) =>
      createServer({ root: ROOT, server: { middlewareMode: true } }),
    )
    closeVite = () => vite.close()
    serveFiles = (app) => app.use(vite.middlewares)
    build = () => vite.ssrLoadModule('virtual:remix/server-build') as Promise<ServerBuild>
  } else {
    // BUILD_DIR: a build made elsewhere than build/ (e.g. the e2e's BASE_PATH build, decision 023).
    const buildDir = path.resolve(ROOT, process.env.BUILD_DIR || 'build')
    const serverBuild = path.join(buildDir, 'server', 'index.js')
    if (!existsSync(serverBuild)) fail('No build found: run `npm run build` first (or `npm start`, which builds).')
    const loaded = (await import(serverBuild)) as ServerBuild
    // The sub-path is fixed in the build (BASE_PATH at build time); a different one now is a mistake.
    basePath = loaded.basename && loaded.basename !== '/' ? loaded.basename.replace(/\/+$/, '') : ''
    const wanted = (process.env.BASE_PATH ?? '').trim().replace(/^\/+|\/+$/g, '')
    if (process.env.BASE_PATH !== undefined && (wanted ? `/${wanted}` : '') !== basePath) {
      fail(
        `BASE_PATH is "${process.env.BASE_PATH}" but the build serves "${basePath || '/'}": build ` +
          `again with BASE_PATH=${process.env.BASE_PATH} npm run build.`,
      )
    }
    serveFiles = (app) => {
      // Fingerprinted file names: safe to cache for a year.
      app.use(
        `${basePath}/assets`,
        express.static(path.join(buildDir, 'client', 'assets'), { immutable: true, maxAge: '1y' }),
      )
      // The rest of public/ (favicon.ico, robots.txt): only paths with a file extension look on
      // disk, so a page request does not cost a stat of the client folder.
      const publicFiles = express.static(path.join(buildDir, 'client'), { maxAge: '1h' })
      app.use(basePath || '/', (req, res, next) => (/\.\w+$/.test(req.path) ? publicFiles(req, res, next) : next()))
    }
    build = loaded
  }
  const app = createBaseApp({
    allowEmbedding: env.ALLOW_EMBEDDING,
    scriptNonces: !isDev,
    logger,
    clusterUrl: () => process.env.CLUSTER_URL,
    basePath,
    maxConcurrent: env.MAX_CONCURRENT_REQUESTS,
    trustProxy: env.TRUST_PROXY,
  })
  serveFiles(app)
  // The CSP nonce securityHeaders made for this request reaches entry.server through the load
  // context; the client's address (the peer, or what a trusted proxy says: TRUST_PROXY) reaches the
  // login and password-reset throttles.
  app.all(
    '*',
    createRequestHandler({
      build,
      mode: process.env.NODE_ENV,
      getLoadContext: (req, res) => ({
        cspNonce: res.locals.cspNonce as string | undefined,
        clientAddress: req.ip ?? req.socket.remoteAddress,
      }),
    }),
  )

  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(env.PORT, () => resolve(listening))
    listening.once('error', reject)
  }).catch((error: NodeJS.ErrnoException) => {
    void cluster?.stop()
    fail(error.code === 'EADDRINUSE' ? `Port ${env.PORT} is already in use: set PORT to another port.` : String(error))
  })

  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : env.PORT
  const lines = [`Cluster Console is running at http://localhost:${port}${basePath}`]
  if (cluster) {
    lines.push(`Local cluster: ${cluster.url} (data in ${process.env.CLUSTER_DATA_DIR ?? '.data/cluster'})`)
    // never the password itself: a start log is read by more people than the machine's operator
    const relative = path.relative(process.cwd(), cluster.adminFile)
    const adminFile =
      relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : cluster.adminFile
    lines.push(`Log in as ${cluster.admin.email} with the password in ${adminFile}`)
  } else {
    lines.push(`Cluster: ${env.CLUSTER_URL}`)
  }
  console.log(`\n  ${lines.join('\n  ')}\n`)

  let isClosing = false
  const shutdown = async (signal: string) => {
    if (isClosing) return
    isClosing = true
    console.log(`${signal}: shutting down…`)
    await closeGracefully(server)
    // what the app kept back to write (the query history's last runs) goes before the cluster stops
    await runBeforeClose(5_000)
    await closeVite?.()
    await cluster?.stop()
    process.exit(0)
  }
  // Without its cluster the console can only show errors: stop, so a supervisor restarts both.
  void cluster?.exited.then(({ code, signal }) => {
    if (isClosing) return
    console.error(`The local cluster stopped (code ${code}, signal ${signal}); stopping the console.`)
    isClosing = true
    server.close()
    server.closeAllConnections()
    process.exit(1)
  })
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
}

void main()
