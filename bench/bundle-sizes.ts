import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, posix } from 'node:path'
import { gzipSync } from 'node:zlib'

/** One route's first load: every script the browser fetches before the page is interactive. */
export type RouteBundle = {
  routeId: string
  /** The URL pattern the route answers (`/data/tables/:tableId`), or its id when pathless. */
  url: string
  files: string[]
  jsGzipBytes: number
  cssGzipBytes: number
  /** Heavy libraries found in the initial closure (must stay empty). */
  heavy: string[]
}

type ManifestEntry = { module: string; imports?: string[]; css?: string[] }
type ManifestRoute = ManifestEntry & { id: string; parentId?: string; path?: string; index?: boolean }
type RemixManifest = { entry: ManifestEntry; routes: Record<string, ManifestRoute> }

/** The `url` of the pseudo-route that measures the shell every page loads (entry + root). */
export const SHELL = '(shell: entry + root)'

/** What marks a chunk as Ace or Plotly, whatever the bundler named it. */
const HEAVY_SIGNATURES: { name: string; test: (file: string, text: string) => boolean }[] = [
  // By content: a file-name test also caught the console's own theme chunk (`theme-<hash>.js`).
  {
    name: 'ace',
    test: (file, text) =>
      /(^|\/)ace[\w-]*\.js$/.test(file) || text.includes('"ace/lib/') || /\bace\.define\(\s*"ace\//.test(text),
  },
  {
    name: 'plotly',
    test: (file, text) =>
      /plotly/i.test(file) || text.includes('plotly_relayouting') || text.includes('plotly.js (basic)'),
  },
]

/** Reads the Remix browser manifest (`window.__remixManifest=…`) the build wrote to build/client/assets. */
export function readRemixManifest(clientDir: string): RemixManifest {
  const assets = join(clientDir, 'assets')
  const file = readdirSync(assets).find((name) => /^manifest-[\w-]+\.js$/.test(name))
  if (!file) throw new Error(`No Remix manifest in ${assets}: run npm run build first`)
  const text = readFileSync(join(assets, file), 'utf8')
  const json = text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)
  return JSON.parse(json) as RemixManifest
}

/** The static imports of a built chunk (`import … from"./x.js"`, `import"./x.js"`), not `import("./x.js")`. */
function staticImports(text: string): string[] {
  const found = new Set<string>()
  const pattern = /(?:\bfrom\s*|\bimport\s*)["'](\.{1,2}\/[^"']+\.js)["']/g
  for (const match of text.matchAll(pattern)) found.add(match[1]!)
  return [...found]
}

/**
 * Returns, for every route of the build, the gzipped size of its initial JavaScript: the client
 * entry, the root and each ancestor route, the route itself and everything they import statically;
 * and the root alone as `SHELL`.
 */
export function measureRouteBundles(clientDir = 'build/client'): RouteBundle[] {
  if (!existsSync(clientDir)) throw new Error(`${clientDir} is missing: run npm run build first`)
  const manifest = readRemixManifest(clientDir)
  const gzCache = new Map<string, number>()
  const textCache = new Map<string, string>()
  const read = (url: string) => {
    let text = textCache.get(url)
    if (text === undefined) {
      text = readFileSync(join(clientDir, url), 'utf8')
      textCache.set(url, text)
    }
    return text
  }
  const gz = (url: string) => {
    let size = gzCache.get(url)
    if (size === undefined) {
      size = gzipSync(readFileSync(join(clientDir, url))).length
      gzCache.set(url, size)
    }
    return size
  }
  // Walk static imports as well as the manifest's lists, in case they are not transitive.
  const closure = (roots: string[]) => {
    const seen = new Set<string>()
    const queue = [...roots]
    while (queue.length) {
      const url = queue.shift()!
      if (seen.has(url) || !url.endsWith('.js')) continue
      seen.add(url)
      for (const relative of staticImports(read(url))) queue.push(posix.join(posix.dirname(url), relative))
    }
    return [...seen]
  }

  const routes = Object.values(manifest.routes)
  const parents = new Set(routes.map((route) => route.parentId).filter(Boolean))
  const chain = (route: ManifestRoute): ManifestRoute[] => {
    const list: ManifestRoute[] = []
    for (let at: ManifestRoute | undefined = route; at; at = at.parentId ? manifest.routes[at.parentId] : undefined)
      list.unshift(at)
    return list
  }
  const urlOf = (route: ManifestRoute) => {
    const segments = chain(route)
      .map((r) => r.path)
      .filter((p): p is string => Boolean(p))
    return segments.length || route.index ? `/${segments.join('/')}`.replace(/\/+/g, '/') : route.id
  }

  return (
    routes
      // The root alone is every page's shell: the entry, the root and their static imports.
      .filter((route) => route.id === 'root' || !parents.has(route.id) || Boolean(route.path))
      .map((route) => {
        const roots = [manifest.entry.module, ...(manifest.entry.imports ?? [])]
        const css = new Set<string>()
        for (const r of chain(route)) {
          roots.push(r.module, ...(r.imports ?? []))
          for (const sheet of r.css ?? []) css.add(sheet)
        }
        const files = closure(roots.map((url) => url.replace(/^\//, '')))
        const heavy = HEAVY_SIGNATURES.filter((sig) => files.some((file) => sig.test(file, read(file)))).map(
          (sig) => sig.name,
        )
        return {
          routeId: route.id,
          url: route.id === 'root' ? SHELL : urlOf(route),
          files,
          jsGzipBytes: files.reduce((sum, file) => sum + gz(file), 0),
          cssGzipBytes: [...css].reduce((sum, file) => sum + gz(file.replace(/^\//, '')), 0),
          heavy,
        }
      })
      .sort((a, b) => a.url.localeCompare(b.url))
  )
}
