// Fails when a route's first-load JavaScript is over 170 KB gzipped or the shell's over 120 KB
// (issue 33, decision 075); the routes OVER_BUDGET_CEILINGS_KB names may weigh up to their ceiling
// until they are brought under. Reads the browser build (build/client, or BUILD_DIR/client): run it
// after `npm run build`.
import { join, resolve } from 'node:path'
import { OVER_BUDGET_CEILINGS_KB, runJsBudget } from '../bench/js-budget'

const root = resolve(import.meta.dirname, '..')
const { problems } = runJsBudget(join(root, process.env.BUILD_DIR || 'build', 'client'), {
  ceilings: OVER_BUDGET_CEILINGS_KB,
})
if (problems.length) {
  for (const problem of problems) console.error(`js budget: ${problem}`)
  process.exitCode = 1
}
