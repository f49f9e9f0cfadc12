import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { E2E_PORT } from './env'

// Both projects (js, no-js) share one cluster and may run at once: a purge in one would remove the
// other's finished jobs mid-test. Tests that create or purge batch jobs take a lock (a directory) so
// they never overlap.
const LOCK = path.join(os.tmpdir(), `console-e2e-jobs-lock-${E2E_PORT}`)
export async function withJobsLock(run: () => Promise<void>) {
  for (;;) {
    try {
      fs.mkdirSync(LOCK)
      break
    } catch {
      // A lock left by a crashed worker is stale after two minutes.
      const age = Date.now() - (fs.statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now())
      if (age > 120_000) fs.rmSync(LOCK, { recursive: true, force: true })
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
  try {
    await run()
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true })
  }
}

/**
 * Waits for `target` on a list with running jobs: with scripts the list refreshes itself (nothing is
 * clicked); without them the user reloads it with its Refresh link until `target` shows.
 */
export async function refreshUntil(page: Page, target: Locator, timeout = 30_000) {
  if (test.info().project.name === 'js') {
    await expect(target).toBeVisible({ timeout })
    return
  }
  // without scripts the user reloads the list with its Refresh link until the target shows
  await expect
    .poll(
      async () => {
        if (await target.isVisible()) return true
        await page.getByRole('link', { name: 'Refresh' }).click()
        return target.isVisible()
      },
      { timeout, intervals: [500] },
    )
    .toBe(true)
  await expect(target).toBeVisible()
}
