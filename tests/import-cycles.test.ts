import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { ESLint } from 'eslint'
import { afterAll, describe, expect, it } from 'vitest'

/*
 * Issue 53, point 2 (decision 102): `npm run lint` keeps app/ free of import cycles
 * (import-x/no-cycle, in eslint.config.js). A cycle hid the session check's road to the cluster
 * behind a per-request dynamic import; a dynamic import counts here too.
 */

const ROOT = path.resolve(import.meta.dirname, '..')
const scratch = path.join(ROOT, 'app', `.cycle-scratch-${process.pid}`)

afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const cycleMessages = async (files: string[]) => {
  const results = await new ESLint({ cwd: ROOT }).lintFiles(files)
  return results.flatMap((result) =>
    result.messages
      .filter((message) => message.ruleId === 'import-x/no-cycle')
      .map((message) => `${path.relative(ROOT, result.filePath)}: ${message.message}`),
  )
}

describe('the import cycle rule', () => {
  it('fails on a cycle added in app/, a dynamic import included', async () => {
    mkdirSync(scratch, { recursive: true })
    const a = path.join(scratch, 'a.server.ts')
    const b = path.join(scratch, 'b.server.ts')
    writeFileSync(a, "import { b } from './b.server'\n\nexport const a = () => b()\n")
    // the shape of the old loop: a helper that reaches back through an import() at run time
    writeFileSync(b, "export async function b() {\n  return (await import('./a.server')).a\n}\n")
    const messages = await cycleMessages([a, b])
    expect(messages.length, messages.join('\n')).toBeGreaterThanOrEqual(1)
    expect(messages.join('\n')).toMatch(/Dependency cycle/)
  }, 60_000)

  it('finds none in the session check, the client and the session module', async () => {
    const files = [
      'app/utils/session.server.ts',
      'app/api/client.server.ts',
      'app/api/session-check.server.ts',
      'app/api/revocations.server.ts',
      'app/api/users.server.ts',
      'app/routes/_console+/_layout.tsx',
    ].map((file) => path.join(ROOT, file))
    expect(await cycleMessages(files)).toEqual([])
  }, 60_000)
})
