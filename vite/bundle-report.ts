import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { gzipSync } from 'node:zlib'
import type { Plugin } from 'vite'

/**
 * `BUNDLE_REPORT=1 npm run build` writes build/bundle-report.txt: every browser chunk with its
 * gzipped size and static and dynamic imports, then its modules, largest first, each gzipped on
 * its own (so they add up to more than the chunk). For finding what a route's first load carries;
 * the figures that count are bench/bundle-sizes.ts's.
 */
export function bundleReport(): Plugin {
  return {
    name: 'bundle-report',
    apply: 'build',
    generateBundle(options, bundle) {
      if (this.environment?.config.consumer === 'server' || !options.dir || /[\\/]server$/.test(options.dir)) return
      const root = process.cwd()
      const lines: string[] = []
      const chunks = Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [output] : []))
      for (const chunk of chunks.sort((a, b) => b.code.length - a.code.length)) {
        lines.push(
          `== ${chunk.fileName} ${(gzipSync(chunk.code).length / 1024).toFixed(1)} KB gz; ` +
            `imports ${chunk.imports.join(' ') || '-'}; ` +
            `dynamic ${chunk.dynamicImports.join(' ') || '-'}`,
        )
        const modules = Object.entries(chunk.modules)
          .filter(([, module]) => module.renderedLength > 0)
          .map(([id, module]) => ({
            id,
            gz: module.code ? gzipSync(module.code).length : 0,
            raw: module.renderedLength,
          }))
          .sort((a, b) => b.gz - a.gz)
        for (const module of modules) {
          const name = module.id.includes('node_modules')
            ? module.id.replace(/.*node_modules[\\/]/, '')
            : relative(root, module.id)
          lines.push(
            `  ${(module.gz / 1024).toFixed(2).padStart(6)} KB gz ${String(module.raw).padStart(8)} B  ${name}`,
          )
        }
      }
      mkdirSync(dirname(options.dir), { recursive: true })
      writeFileSync(join(dirname(options.dir), 'bundle-report.txt'), `${lines.join('\n')}\n`)
    },
  }
}
