import type { Plugin } from 'vite'

/**
 * A Vite plugin that, in the browser build only, loads the modules matching `module` as the source
 * `stub(file)` returns; the server build keeps the real modules. The shared part of the console's
 * build-time replacements (decisions 027 and 032). A browser build in which `module` matched nothing
 * fails: the swap keys on a package's internal paths, which a new version may move (issue 34).
 */
export function browserStub(name: string, module: RegExp, stub: (file: string) => string): Plugin {
  let isBrowserBuild = false
  let matched = 0
  return {
    name,
    enforce: 'pre',
    configResolved(config) {
      isBrowserBuild = config.command === 'build' && !config.build.ssr
    },
    buildStart() {
      matched = 0
    },
    load(id, options) {
      const file = id.split('?')[0]!
      if (options?.ssr || !module.test(file)) return null
      matched++
      return stub(file)
    },
    buildEnd(error) {
      if (isBrowserBuild && !error && matched === 0)
        this.error(`${name}: no module matched ${module} in the browser build; the package's layout has changed`)
    },
  }
}
