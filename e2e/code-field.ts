import type { Locator, Page, TestInfo } from '@playwright/test'
import { expect } from './fixtures'

/**
 * A SQL or JSON field (decision 076): its textarea without scripts; with them the Ace editor that
 * replaced it (its input is named "<label>, Cursor at row N"; the text posts through a hidden input).
 * `input`: what is typed into and described; `value`: what the form posts.
 */
export function codeField(page: Page, testInfo: TestInfo, label: string) {
  const isJs = testInfo.project.name === 'js'
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const field = page
    .locator('.cc-field')
    .filter({ has: page.locator('label.cc-field-label', { hasText: new RegExp(`^${escaped}$`) }) })
  const input: Locator = isJs
    ? field.getByRole('textbox', { name: new RegExp(`^${escaped}, `) })
    : page.getByLabel(label, { exact: true })
  const value: Locator = isJs ? field.locator('textarea[name], input[type=hidden][name]') : input
  return {
    input,
    value,
    /** Replaces the field's text. */
    async fill(text: string) {
      if (!isJs) return input.fill(text)
      const editor = field.locator('.ace_editor')
      await expect(editor).toBeVisible()
      // through the editor's own API, not the keyboard: a page that moves focus while it settles (an
      // autofocused field, the first invalid field after a refusal) took typed text elsewhere (CI)
      await editor.evaluate((element, typed) => {
        const ace = (element as HTMLElement & { env?: { editor?: { setValue(v: string, cursor: number): void } } }).env
        if (!ace?.editor) throw new Error('no Ace editor on this element')
        ace.editor.setValue(typed, 1)
      }, text)
      await expect(value).toHaveValue(text)
    },
  }
}
