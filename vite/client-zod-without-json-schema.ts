import { readFileSync } from 'node:fs'
import type { Plugin } from 'vite'
import { browserStub } from './browser-stub'

/** zod's JSON-schema modules: every classic schema links them, the browser never calls them. */
const JSON_SCHEMA_MODULE = /[\\/]zod[\\/]v4[\\/]core[\\/](to-json-schema|json-schema-processors)\.js$/

/**
 * In the browser build only, replaces zod 4's JSON-schema generator with stubs of the same exports
 * (decision 027). zod classic attaches `toJSONSchema` and a per-type JSON-schema processor to every
 * schema, so tree-shaking keeps about 8 KB gzipped of code the console's forms never run; the
 * server build keeps the real modules. Calling it in the browser throws a clear error.
 */
export function clientZodWithoutJsonSchema(): Plugin {
  return browserStub('client-zod-without-json-schema', JSON_SCHEMA_MODULE, (file) => {
    const source = readFileSync(file, 'utf8')
    const names = new Set<string>()
    for (const match of source.matchAll(/^export\s+(?:const|function|let|var|class)\s+([A-Za-z_$][\w$]*)/gm))
      names.add(match[1]!)
    for (const match of source.matchAll(/^export\s*\{([^}]*)\}/gm)) {
      for (const part of match[1]!.split(',')) {
        const name = part
          .trim()
          .split(/\s+as\s+/)
          .pop()
          ?.trim()
        if (name) names.add(name)
      }
    }
    const body = [
      `const unavailable = () => { throw new Error('zod JSON schema is not in the browser build ` +
        `(vite/client-zod-without-json-schema.ts)') }`,
      ...[...names].map((name) => `export const ${name} = unavailable`),
    ]
    return body.join('\n')
  })
}
