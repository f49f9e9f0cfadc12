import type { Plugin } from 'vite'

/**
 * A Vite plugin that, in the browser build only, loads the modules matching `module` as the source
 * `stub(file)` returns; the server build keeps the real modules. The shared part of the console's
 * build-time replacements (decisions 027 and 032).
 */
export function browserStub(name: string, module: RegExp, stub: (file: string) => string): Plugin {
  return {
    name,
    enforce: 'pre',
    load(id, options) {
      const file = id.split('?')[0]!
      if (options?.ssr || !module.test(file)) return null
      return stub(file)
    },
  }
}
