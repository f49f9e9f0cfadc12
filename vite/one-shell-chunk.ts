import { dirname, join } from 'node:path'
import type { ManualChunkMeta, ModuleInfo } from 'rollup'
import type { Plugin } from 'vite'

/** The modules every page loads, with what they import statically: Remix's browser entry and the root route. */
const SHELL_ENTRIES = /[\\/]app[\\/](entry\.client|root)\.tsx$/

/** Every export of a module is wanted (a namespace import, or a module whose imports are not known by name). */
const ALL = '*'

type Wanted = Set<string> | typeof ALL

type Node = { type: string; [key: string]: unknown }
type Named = { name?: string; value?: string } | null | undefined

const nameOf = (node: Named) => node?.name ?? node?.value ?? 'default'

/** Every identifier name under a node: what a statement may refer to (more than it does, never less). */
function identifiers(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) identifiers(item, found)
  else if (node && typeof node === 'object') {
    if ((node as Node).type === 'Identifier') found.add(String((node as Node).name))
    for (const [key, value] of Object.entries(node))
      if (key !== 'type' && value && typeof value === 'object') identifiers(value, found)
  }
  return found
}

/** Whether a declaration calls the result of a call outside any function of its own. */
function callsACallResult(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(callsACallResult)
  if (!node || typeof node !== 'object') return false
  const { type } = node as Node
  if (type === 'ArrowFunctionExpression' || type === 'FunctionExpression' || type === 'FunctionDeclaration')
    return false
  if (type === 'CallExpression' && ((node as Node).callee as Node).type === 'CallExpression') return true
  return Object.entries(node).some(
    ([key, value]) => key !== 'type' && value && typeof value === 'object' && callsACallResult(value),
  )
}

/** The names a top-level declaration declares. */
function declared(node: Node | undefined): string[] {
  if (!node) return []
  if (node.type === 'VariableDeclaration')
    return [...identifiers((node.declarations as { id: unknown }[]).map((d) => d.id))]
  if (node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration')
    return node.id ? [nameOf(node.id as Named)] : []
  return []
}

type Statement = { declares: string[]; exports: string[]; refs: Set<string>; hasSideEffects: boolean }

type ModuleShape = {
  statements: Statement[]
  /** Local name → the module and export it is imported from. */
  imports: Map<string, { id: string; name: string }>
  /** Modules imported for their side effects only (`import './x'`). */
  bare: string[]
  /** Exported name → the module and name it is re-exported from (`*` for a namespace). */
  reexports: Map<string, { id: string; name: string }>
  /** Exported name → the local name it exports (`export { a as b }`). */
  localExports: Map<string, string>
  stars: string[]
  /** The export a name not exported resolves to (rollup's commonjs modules: `__moduleExports`). */
  synthetic: string | null
}

/**
 * A module's top-level statements, imports and exports, or null when its sources cannot be matched
 * to the ids rollup resolved them to (then all it imports is followed).
 */
function readModule(info: ModuleInfo): ModuleShape | null {
  const body = (info.ast as { body?: Node[] } | null)?.body
  if (!body) return null
  const sources: string[] = []
  for (const node of body) {
    const source = (node.source as { value?: string } | null | undefined)?.value
    if (
      source !== undefined &&
      /^(Import|ExportNamed|ExportAll)Declaration$/.test(node.type) &&
      !sources.includes(source)
    )
      sources.push(source)
  }
  if (sources.length !== info.importedIds.length) return null
  const idOf = new Map(sources.map((source, index) => [source, info.importedIds[index]!]))
  // Rollup lists a module's imports in the order of their sources; a relative one must be the file it names.
  const from = dirname(info.id.split('?')[0]!)
  for (const [source, id] of idOf) {
    const file = id.split('?')[0]!
    const expected = join(from, source)
    if (
      source.startsWith('.') &&
      file !== expected &&
      !file.startsWith(`${expected}.`) &&
      !file.startsWith(`${expected}/index.`)
    )
      return null
  }
  const shape: ModuleShape = {
    statements: [],
    imports: new Map(),
    bare: [],
    reexports: new Map(),
    localExports: new Map(),
    stars: [],
    synthetic:
      typeof info.syntheticNamedExports === 'string'
        ? info.syntheticNamedExports
        : info.syntheticNamedExports
          ? 'default'
          : null,
  }
  for (const node of body) {
    const id = node.source ? idOf.get((node.source as { value: string }).value) : undefined
    const specifiers = (node.specifiers ?? []) as { type: string; imported?: Named; local?: Named; exported?: Named }[]
    if (node.type === 'ImportDeclaration' && id) {
      if (!specifiers.length) shape.bare.push(id)
      for (const specifier of specifiers) {
        const name =
          specifier.type === 'ImportNamespaceSpecifier'
            ? ALL
            : specifier.type === 'ImportDefaultSpecifier'
              ? 'default'
              : nameOf(specifier.imported)
        shape.imports.set(nameOf(specifier.local), { id, name })
      }
    } else if (node.type === 'ExportNamedDeclaration' && id) {
      for (const specifier of specifiers)
        shape.reexports.set(nameOf(specifier.exported), {
          id,
          name: specifier.type === 'ExportNamespaceSpecifier' ? ALL : nameOf(specifier.local),
        })
    } else if (node.type === 'ExportAllDeclaration' && id) {
      if (node.exported) shape.reexports.set(nameOf(node.exported as Named), { id, name: ALL })
      else shape.stars.push(id)
    } else if (node.type === 'ExportNamedDeclaration') {
      const declaration = node.declaration as Node | undefined
      const names = declared(declaration)
      for (const specifier of specifiers) shape.localExports.set(nameOf(specifier.exported), nameOf(specifier.local))
      if (declaration)
        shape.statements.push({
          declares: names,
          exports: names,
          refs: identifiers(declaration),
          hasSideEffects: false,
        })
    } else if (node.type === 'ExportDefaultDeclaration') {
      shape.statements.push({
        declares: declared(node.declaration as Node),
        exports: ['default'],
        refs: identifiers(node.declaration),
        hasSideEffects: false,
      })
    } else if (!(node.type === 'ExpressionStatement' && node.directive)) {
      const names = declared(node)
      // A declaration is kept when something uses it, or when it calls what a call returned (rollup
      // cannot tell that is pure: `createProps()([…])`); anything else (a call, an assignment) always.
      shape.statements.push({
        declares: names,
        exports: [],
        refs: identifiers(node),
        hasSideEffects: !names.length || callsACallResult(node),
      })
    }
  }
  for (const [exported, local] of shape.localExports) {
    const imported = shape.imports.get(local)
    if (imported && !shape.statements.some((statement) => statement.declares.includes(local)))
      shape.reexports.set(exported, imported)
  }
  return shape
}

/** What a module needs from others when `names` of it are used: tree-shaking by statement, roughly as rollup does. */
function needs(
  shape: ModuleShape,
  names: Set<string> | typeof ALL,
): { wanted: { id: string; names: Wanted }[]; isUsed: boolean } {
  const wanted: { id: string; names: Wanted }[] = shape.bare.map((id) => ({ id, names: new Set<string>() }))
  if (names !== ALL && shape.synthetic) {
    const exported = new Set([
      ...shape.localExports.keys(),
      ...shape.reexports.keys(),
      ...shape.statements.flatMap((s) => s.exports),
    ])
    if ([...names].some((name) => !exported.has(name))) names = new Set([...names, shape.synthetic])
  }
  const isWanted = (name: string) => names === ALL || names.has(name)
  const localWanted = new Set<string>()
  for (const [exported, local] of shape.localExports) if (isWanted(exported)) localWanted.add(local)
  const kept = new Set<Statement>()
  const refs = new Set<string>()
  const keep = (statement: Statement) => {
    if (kept.has(statement)) return
    kept.add(statement)
    for (const ref of statement.refs) refs.add(ref)
  }
  for (const statement of shape.statements) {
    if (
      statement.hasSideEffects ||
      statement.exports.some(isWanted) ||
      statement.declares.some((name) => localWanted.has(name))
    )
      keep(statement)
  }
  for (let grew = true; grew;) {
    grew = false
    for (const statement of shape.statements) {
      if (!kept.has(statement) && statement.declares.some((name) => refs.has(name) || localWanted.has(name))) {
        keep(statement)
        grew = true
      }
    }
  }
  for (const [local, from] of shape.imports) {
    if (refs.has(local) || localWanted.has(local))
      wanted.push({ id: from.id, names: from.name === ALL ? ALL : new Set([from.name]) })
  }
  for (const [exported, from] of shape.reexports) {
    if (isWanted(exported)) wanted.push({ id: from.id, names: from.name === ALL ? ALL : new Set([from.name]) })
  }
  if (names === ALL) for (const id of shape.stars) wanted.push({ id, names: ALL })
  else
    for (const name of names)
      if (
        !shape.reexports.has(name) &&
        !shape.localExports.has(name) &&
        !shape.statements.some((s) => s.exports.includes(name))
      )
        for (const id of shape.stars) wanted.push({ id, names: new Set([name]) })
  return { wanted, isUsed: kept.size > 0 }
}

/**
 * The modules the shell entries need: their static imports followed by name, keeping only the
 * statements those names use, so that neither a package index (@chakra-ui/react's re-exports every
 * component) nor an unused export of a module brings in what tree-shaking leaves to the routes.
 */
function shellModules(meta: ManualChunkMeta): Set<string> {
  const included = new Set<string>()
  const wantedOf = new Map<string, Set<string>>()
  const shapes = new Map<string, ModuleShape | null>()
  const queue: { id: string; names: Wanted }[] = []
  const entries = [...meta.getModuleIds()].filter((id) => SHELL_ENTRIES.test(id.split('?')[0]!))
  for (const id of entries) queue.push({ id, names: ALL })
  while (queue.length) {
    const { id, names } = queue.pop()!
    const info = meta.getModuleInfo(id)
    if (!info || info.isExternal) continue
    if (!shapes.has(id)) shapes.set(id, readModule(info))
    const shape = shapes.get(id)!
    const seen = wantedOf.get(id)
    const isFirstVisit = !seen
    const union: Set<string> = new Set([...(seen ?? []), ...(names === ALL ? [ALL] : names)])
    if (!isFirstVisit && union.size === seen!.size) continue
    wantedOf.set(id, union)
    if (!shape) {
      included.add(id)
      if (isFirstVisit) for (const next of info.importedIds) queue.push({ id: next, names: ALL })
      continue
    }
    const { wanted, isUsed } = needs(shape, union.has(ALL) ? ALL : union)
    // A module counts when a statement of it is kept, not when it only passes names on.
    if (isUsed && info.isIncluded !== false) included.add(id)
    queue.push(...wanted)
  }
  for (const id of entries) included.delete(id)
  return withoutPullIns(meta, included)
}

/**
 * Those of `modules` whose static imports, followed whole, reach no module outside them that the
 * build keeps. Rollup puts a manual chunk's imports into it too, unused ones included: theme.ts's
 * `import … from '@chakra-ui/react'` would bring every component some route uses.
 */
function withoutPullIns(meta: ManualChunkMeta, modules: Set<string>): Set<string> {
  const result = new Set<string>()
  for (const start of modules) {
    const seen = new Set([start])
    const queue = [start]
    let isClosed = true
    while (queue.length && isClosed) {
      for (const next of meta.getModuleInfo(queue.pop()!)?.importedIds ?? []) {
        if (seen.has(next)) continue
        seen.add(next)
        const info = meta.getModuleInfo(next)
        if (!info || info.isExternal) continue
        if (!modules.has(next) && info.isIncluded !== false && !SHELL_ENTRIES.test(next.split('?')[0]!)) {
          isClosed = false
          break
        }
        queue.push(next)
      }
    }
    if (isClosed) result.add(start)
  }
  return result
}

/**
 * In the browser build only, puts the modules the client entry and the root route need (React,
 * ReactDOM, Remix, Chakra's runtime, the root's helpers) into one chunk, `shell` (decision 034).
 * Rollup otherwise splits them, by which routes share them, into ten files that every page loads
 * anyway; gzipped one by one they cost 1.8 KB more than together (each file starts its compression
 * afresh, and the chunks import and export between them). Nothing moves into the shell that was not
 * in it: imports are followed by name through re-exporting index modules and unused statements, as
 * tree-shaking does, and a module whose imports reach code outside the shell stays in its own chunk
 * (theme.ts and chakra-config.ts import from '@chakra-ui/react'). `BUNDLE_REPORT=1 npm run build`
 * lists the chunks' modules, to compare with a build without this plugin. The two entry modules
 * stay apart: Remix loads them by name.
 */
export function oneShellChunk(): Plugin {
  let isBrowserBuild = false
  return {
    name: 'one-shell-chunk',
    apply: 'build',
    config(_, { isSsrBuild }) {
      isBrowserBuild = !isSsrBuild
      if (isSsrBuild) return
      let shell: Set<string> | undefined
      return {
        build: {
          rollupOptions: {
            output: {
              manualChunks(id, meta) {
                shell ??= shellModules(meta)
                return shell.has(id) ? 'shell' : undefined
              },
            },
          },
        },
      }
    },
    generateBundle(_, bundle) {
      // The shell entries are found by their paths: a build where they matched nothing would
      // quietly split the shell again (issue 34).
      if (!isBrowserBuild) return
      const chunks = Object.values(bundle).filter((file) => file.type === 'chunk')
      if (chunks.some((chunk) => chunk.isEntry) && !chunks.some((chunk) => chunk.name === 'shell'))
        this.error('one-shell-chunk: the browser build has no shell chunk; no module matched the shell entries')
    },
  }
}
