import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, type Browser, type TestInfo } from '@playwright/test'
import { E2E_PORT } from './env'

/** The e2e local cluster's data directory (as playwright.config.ts gives it to the console it starts). */
export const E2E_CLUSTER_DATA_DIR =
  process.env.E2E_CLUSTER_DATA_DIR ?? join(tmpdir(), `console-e2e-cluster-${E2E_PORT}`)

type Mail = { to: string; subject: string; link: string; timestamp: string }

/** The mails the local cluster has "sent" to `email` (its outbox file: only the machine's operator reads it). */
export function mailsTo(email: string): Mail[] {
  let text = ''
  try {
    text = readFileSync(join(E2E_CLUSTER_DATA_DIR, 'outbox.jsonl'), 'utf8')
  } catch {
    return []
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Mail)
    .filter((mail) => mail.to === email.toLowerCase())
}

/** Waits for a new mail to `email` (after `seen` of them) and answers its link. */
export async function nextLinkTo(email: string, seen = 0): Promise<string> {
  await expect.poll(() => mailsTo(email).length).toBeGreaterThan(seen)
  return mailsTo(email).at(-1)!.link
}

/**
 * Walks an invited user's way in: takes the set-password link the local cluster "sent" to `email`
 * (its outbox, since it has no mail server), sets `password` on it and signs in, in a fresh context
 * with the project's scripts setting. Resolves with the signed-in page, on the dashboard.
 */
export async function acceptInvite(browser: Browser, testInfo: TestInfo, email: string, password: string) {
  const link = await nextLinkTo(email)
  const { baseURL, javaScriptEnabled } = testInfo.project.use
  const context = await browser.newContext({ baseURL, javaScriptEnabled })
  const page = await context.newPage()
  await page.goto(link)
  await page.getByLabel('New password').fill(password)
  await page.getByLabel('Repeat password').fill(password)
  await page.getByRole('button', { name: 'Set password' }).click()
  await expect(page).toHaveURL(/\/login/)
  // (not logIn(): the "Password set" toast's Dismiss button is labelled "…Password…" too)
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL('**/dashboard')
  return page
}
