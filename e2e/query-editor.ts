import type { Page, TestInfo } from '@playwright/test'
import { expect } from './fixtures'

/** Replaces the query editor's SQL: the textarea without scripts, Ace (its own textarea, labelled "SQL, Cursor at row N") with them. */
export async function typeSql(page: Page, testInfo: TestInfo, sql: string) {
  if (testInfo.project.name === 'js') {
    await page.getByRole('textbox', { name: /^SQL, / }).focus()
    await page.keyboard.press('ControlOrMeta+a')
    await page.keyboard.press('Delete')
    await page.keyboard.insertText(sql)
  } else {
    await page.getByLabel('SQL', { exact: true }).fill(sql)
  }
}

/** The SQL the query editor holds now. */
export async function editorSql(page: Page, testInfo: TestInfo): Promise<string> {
  if (testInfo.project.name === 'js') {
    await expect(page.locator('.ace_editor')).toBeVisible()
    return page.locator('input[type=hidden][name=sql]').inputValue()
  }
  return page.getByLabel('SQL', { exact: true }).inputValue()
}
