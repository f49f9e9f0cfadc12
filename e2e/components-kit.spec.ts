import { expect, test } from './fixtures'

const SECTIONS = [
  'Page heading',
  'Confirm panel',
  'Detail list',
  'Form card and fields',
  'Fields with errors',
  'Filter form',
  'Data table',
  'Empty state',
  'Pagination',
  'Section tabs',
  'Section card',
  'Status badges',
  'Error panel',
  'Inline alert',
  'Themes',
]

test.describe('components kit', () => {
  test('shows every shared component under its own heading, error states included', async ({ authedPage: page }) => {
    await page.goto('/components-kit')
    await expect(page.getByRole('heading', { level: 1, name: 'Components kit' })).toBeVisible()
    await expect(page.getByRole('heading', { level: 2 })).toHaveText(SECTIONS)

    // A confirm panel after a wrong word: the FORCE field keeps it and says what is wrong.
    const refused = page.getByRole('region', { name: 'Drop sample table web_logs?' })
    const force = refused.getByLabel('Type FORCE to confirm')
    await expect(force).toHaveValue('force')
    await expect(force).toHaveAttribute('aria-invalid', 'true')
    await expect(force).toHaveAccessibleDescription('Type FORCE to confirm')
    await expect(refused.getByRole('button', { name: 'Drop sample table' })).toBeVisible()
    await expect(refused.getByRole('link', { name: 'Cancel' })).toBeVisible()

    // A form the action refused: the form error, each field's error, what was typed kept.
    const errors = page.locator('#field-errors')
    await expect(errors.getByRole('alert')).toHaveText(/already exists in project sample/)
    await expect(errors.getByLabel('Name', { exact: true })).toHaveValue('Web Logs')
    await expect(errors.getByLabel('Name', { exact: true })).toHaveAccessibleDescription(
      /letters, digits and underscores/,
    )
    await expect(errors.getByLabel('Kind')).toHaveAccessibleDescription('Kind is required')
    await expect(errors.getByLabel('Description')).toHaveValue('Typed before the errors')
    await expect(page.locator('#form-card').getByLabel('Owner')).toBeDisabled()

    await expect(page.getByRole('table', { name: 'Sample items' }).getByRole('row')).toHaveCount(11) // header + 10 a page
    await expect(page.getByText('No sample items yet.')).toBeVisible()
    await expect(page.getByRole('alert').filter({ hasText: 'The tables could not be loaded' })).toBeVisible()
    await expect(
      page.getByRole('alert').filter({ hasText: 'The organization summary could not be loaded.' }),
    ).toBeVisible()
  })

  test('a FORCE confirmation refuses a wrong word and accepts FORCE, changing nothing', async ({
    authedPage: page,
  }) => {
    await page.goto('/components-kit')
    const panel = page.getByRole('region', { name: 'Purge finished sample jobs?' })
    const force = panel.getByLabel('Type FORCE to confirm')
    await force.fill('force')
    await panel.getByRole('button', { name: 'Purge sample jobs' }).click()
    await expect(force).toHaveAccessibleDescription('Type FORCE to confirm')
    await expect(force).toHaveValue('force')

    await force.fill('FORCE')
    await panel.getByRole('button', { name: 'Purge sample jobs' }).click()
    await expect(page.getByText('Confirmed. Nothing was changed')).toBeVisible()
    await expect(page).toHaveURL(/\/components-kit$/)
  })

  test('the sample form answers with field errors; the list filters and pages in the URL', async ({
    authedPage: page,
  }, testInfo) => {
    await page.goto('/components-kit')
    const card = page.locator('#form-card')
    await card.getByRole('button', { name: 'Create sample' }).click()
    await expect(card.getByLabel('Name', { exact: true })).toHaveAccessibleDescription(/Name is required/)
    await expect(card.getByLabel('Kind')).toHaveAccessibleDescription('Kind is required')

    await page.getByLabel('Filter by sample name or project').fill('logs')
    await page.getByRole('button', { name: 'Filter' }).click()
    await expect(page).toHaveURL(/q=logs/)
    await expect(page.getByRole('table', { name: 'Sample items' }).getByRole('row')).toHaveCount(4) // header + 3
    await expect(page.getByText('Showing 1–3 of 3 sample items')).toBeVisible()

    await page.goto('/components-kit?q=nothing-matches')
    await expect(page.getByText('No sample items match “nothing-matches”.')).toBeVisible()

    await page.goto('/components-kit')
    await page.getByRole('link', { name: 'Next page' }).click()
    await expect(page).toHaveURL(/page=2/)
    await expect(page.getByText('Showing 11–14 of 14 sample items')).toBeVisible()
    await page.getByLabel('Rows per page').selectOption('25')
    if (testInfo.project.name === 'no-js') await page.getByRole('button', { name: 'Apply' }).click()
    await expect(page.getByText('Showing 1–14 of 14 sample items')).toBeVisible()

    await page.getByRole('link', { name: 'Second tab' }).click()
    await expect(
      page.getByRole('navigation', { name: 'Sample tabs' }).getByRole('link', { name: 'Second tab' }),
    ).toHaveAttribute('aria-current', 'page')
    await expect(page.getByText('The second tab is open.')).toBeVisible()
  })
})
