import type { Plugin } from 'vite'

/** The console's own `.ts` modules that import zod: the schema modules and a few helpers beside routes. */
const APP_TS_MODULE = /[\\/]app[\\/].*\.ts$/
const IMPORTS_ZOD = /\bfrom\s*["']zod(?:\/[^"']*)?["']/

type Node = { type: string; start: number; end: number; [key: string]: unknown }
type Declarator = { init?: Node | null }

/** Initializers that are pure as they are (rollup drops them when unused without help). */
const ALREADY_PURE = new Set(['Literal', 'Identifier', 'ArrowFunctionExpression', 'FunctionExpression'])

/**
 * In the browser build only, marks every top-level `const` initializer of the console's `.ts`
 * modules that import zod as pure (decision 075): `export const X = z.object(…)` becomes
 * `export const X = /* @__PURE__ *\/ (() => (z.object(…)))()`. Rollup cannot tell that a
 * chain of zod calls has no side effects, so a page that imports one constant, label or helper
 * from a schema module (`roleLabel`, `SAVED_QUERY_NAME_MAX`) otherwise loads every schema of the
 * module and zod with them (about 25 KB gzipped). With the mark, what the page does not use is
 * dropped, and zod is dropped when no schema is left. Nothing runs differently: a used
 * constant is computed at the same point; an unused one was never read. The server build is left
 * as it is. A browser build in which no module matched fails (the plugin would be doing nothing).
 */
export function pureSchemaModules(): Plugin {
  let isBrowserBuild = false
  let matched = 0
  return {
    name: 'pure-schema-modules',
    configResolved(config) {
      isBrowserBuild = config.command === 'build' && !config.build.ssr
    },
    buildStart() {
      matched = 0
    },
    transform(code, id, options) {
      const file = id.split('?')[0]!
      if (!isBrowserBuild || options?.ssr || file.includes('node_modules') || !APP_TS_MODULE.test(file)) return null
      if (!IMPORTS_ZOD.test(code)) return null
      const program = this.parse(code) as unknown as { body: Node[] }
      const inits: Node[] = []
      for (const statement of program.body) {
        const declaration =
          statement.type === 'ExportNamedDeclaration' ? (statement.declaration as Node | null) : statement
        if (declaration?.type !== 'VariableDeclaration' || declaration.kind !== 'const') continue
        for (const declarator of declaration.declarations as Declarator[]) {
          if (declarator.init && !ALREADY_PURE.has(declarator.init.type)) inits.push(declarator.init)
        }
      }
      matched++
      if (!inits.length) return null
      let out = ''
      let at = 0
      for (const init of inits.sort((a, b) => a.start - b.start)) {
        out += `${code.slice(at, init.start)}/* @__PURE__ */ (() => (${code.slice(init.start, init.end)}))()`
        at = init.end
      }
      out += code.slice(at)
      return { code: out, map: null }
    },
    buildEnd(error) {
      if (isBrowserBuild && !error && matched === 0)
        this.error('pure-schema-modules: no app module importing zod was transformed in the browser build')
    },
  }
}
