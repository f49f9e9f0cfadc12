import { chromium } from '@playwright/test'
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless','--no-sandbox','--disable-gpu','--disable-background-networking'] })
const js = process.argv[2] !== 'nojs'
const ctx = await browser.newContext({ baseURL: 'http://127.0.0.1:3405', javaScriptEnabled: js, viewport: { width: 1280, height: 900 } })
const page = await ctx.newPage()
await page.goto('/login')
await page.getByLabel('Email').fill('admin@console.test')
await page.getByLabel('Password').fill('e2e-admin-password-1')
await page.getByRole('button', { name: 'Log in' }).click()
await page.waitForURL('**/dashboard')
for (const [path, file] of JSON.parse(process.argv[3])) {
  await page.goto(path)
  await page.waitForTimeout(500)
  await page.screenshot({ path: `/tmp/scale-shots/${file}.png`, fullPage: true })
}
await browser.close()
