// Settings → Models from the page, as a user gets there: the model picker's "Manage models…", then the dialog.
import { expect, type Locator, type Page } from '@playwright/test';

/** Opens the Models dialog from the model picker; returns the dialog. */
export async function openModelsDialog(page: Page): Promise<Locator> {
  await page.getByRole('combobox', { name: 'Model', exact: true }).click();
  await page.getByRole('button', { name: 'Manage models…' }).click();
  return page.getByRole('dialog', { name: 'Models' });
}

/** Opens the Models dialog on its "Add a connection" form; returns both. */
export async function openAddConnection(page: Page): Promise<{ dialog: Locator; form: Locator }> {
  const dialog = await openModelsDialog(page);
  const form = dialog.getByRole('form', { name: 'Add a connection' });
  // The form is open already when the dialog opened before the connections were listed.
  const add = dialog.getByRole('button', { name: 'Add a connection' });
  await expect(add.or(form).first()).toBeVisible();
  if (await add.isVisible()) await add.click();
  return { dialog, form };
}

/** Opens the Models dialog on its "Local models" tab; returns the dialog and the tab's region. */
export async function openLocalModels(page: Page): Promise<{ dialog: Locator; local: Locator }> {
  const dialog = await openModelsDialog(page);
  await dialog.getByRole('tab', { name: 'Local models' }).click();
  return { dialog, local: dialog.getByRole('region', { name: 'Local models' }) };
}
