#!/usr/bin/env node
// Fails when a patch in patches/ is not in effect in the built server (issue 34).
//
// patch-package patches files in node_modules; the server build imports the frameworks through
// Node's resolution, which may load other files than the ones patched (an ESM build beside the
// CommonJS one, a production bundle beside the plain one). So this loads build/server/index.js as
// `npm start` does, then checks, for every patch, that the files it patches hold every line it adds
// and that at least one of them is among the modules the server actually loaded.
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const root = resolve(import.meta.dirname, '..')
const require = createRequire(join(root, 'package.json'))

/** Each patch's target files with the lines it adds (blank ones left out). */
export function readPatches(dir) {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.patch'))
    .map((name) => {
      const files = new Map()
      let current = null
      for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
        if (line.startsWith('+++ b/')) {
          current = line.slice('+++ b/'.length)
          files.set(current, [])
        } else if (current && line.startsWith('+') && line.slice(1).trim()) files.get(current).push(line.slice(1))
      }
      return { name, files }
    })
}

/** What is wrong with the patches as the built server loads them: empty when every patch is in effect. */
export function checkPatches(patches, loaded, readText = (file) => readFileSync(file, 'utf8')) {
  const problems = []
  for (const { name, files } of patches) {
    let isLoaded = false
    for (const [file, added] of files) {
      const path = join(root, file)
      const text = readText(path)
      const missing = added.filter((line) => !text.includes(line))
      if (missing.length)
        problems.push(`${name}: ${file} lacks ${missing.length} added line(s), e.g. ${missing[0].trim()}`)
      if (loaded.has(path)) isLoaded = true
    }
    if (!isLoaded)
      problems.push(`${name}: the built server loads none of the files it patches (${[...files.keys()].join(', ')})`)
  }
  return problems
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.env.NODE_ENV ??= 'production'
  await import(pathToFileURL(join(root, 'build/server/index.js')).href)
  const patches = readPatches(join(root, 'patches'))
  const problems = checkPatches(patches, new Set(Object.keys(require.cache)))
  if (problems.length) {
    console.error(`Patches not in effect in build/server/index.js:\n- ${problems.join('\n- ')}`)
    process.exit(1)
  }
  console.log(`check-patches: ${patches.length} patches in effect in the built server`)
}
