import path from 'node:path'
import type { Plugin } from 'vite'

const WRAPPER = path.resolve(__dirname, '../app/utils/conform-zod.ts')
const GUARD = path.resolve(__dirname, '../app/utils/form-shape.ts')

/**
 * Resolves `@conform-to/zod/v4` to app/utils/conform-zod.ts for every importer except that module and
 * the guard itself (which import the package): every form's parseWithZod refuses a submission
 * conform cannot read with a 400 and the form kept, instead of throwing (issue 37, decision 061).
 * In the server and browser builds, the dev server and vitest alike. A build (browser or server) in
 * which no module's import was redirected fails: the forms would be parsed unguarded (issue 34).
 */
export function guardedConformParse(): Plugin {
  let isBuild = false
  let redirected = 0
  return {
    name: 'guarded-conform-parse',
    enforce: 'pre',
    configResolved(config) {
      isBuild = config.command === 'build'
    },
    buildStart() {
      redirected = 0
    },
    async resolveId(source, importer, options) {
      if (source !== '@conform-to/zod/v4' || !importer) return null
      const from = importer.split('?')[0]!
      if (from === WRAPPER || from === GUARD) return null
      redirected++
      return this.resolve(WRAPPER, importer, { ...options, skipSelf: true })
    },
    buildEnd(error) {
      if (isBuild && !error && redirected === 0)
        this.error('guarded-conform-parse: no import of @conform-to/zod/v4 was redirected to app/utils/conform-zod.ts')
    },
  }
}
