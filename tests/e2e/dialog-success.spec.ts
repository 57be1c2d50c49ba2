import { expect, test, type Locator, type Page } from './support/test.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { successMessages, trialSuccessMessage } from '#shared/contracts/messages.ts';
import { lostKeyMessages } from '#shared/contracts/licence-recovery.ts';

// A phone: what a visitor sees after sending must be on screen without scrolling (decision 186).
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

const run = Date.now().toString(36);

/** The success view replaced the form, has focus, and is wholly inside the viewport. */
async function expectSuccessView(page: Page, scope: Locator, title: string) {
  const view = scope.getByRole('region', { name: title });
  await expect(view).toBeVisible();
  await expect(view).toBeFocused();
  await expect(view).toBeInViewport({ ratio: 1 });
  await expect(scope.locator('form')).toHaveCount(0);
  await expect(view.getByText('Next step:')).toBeInViewport({ ratio: 1 });
  const sideways = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(sideways).toBe(0);
  return view;
}

test('contact: after a long message the success view is on screen, not under the form', async ({
  page,
}) => {
  await page.goto('/pricing?modal=contact');
  const dialog = page.getByRole('dialog', { name: 'Get in touch' });
  await dialog.getByLabel('Name', { exact: true }).fill('Phone Visitor');
  await dialog.getByLabel('Email address', { exact: true }).fill(`phone-${run}@example.com`);
  await dialog.getByLabel('Message', { exact: true }).fill('Several lines.\n'.repeat(12));
  await dialog.getByLabel('Company (optional)').fill('Example Corp');
  const send = dialog.locator('button[type=submit]');
  await send.scrollIntoViewIfNeeded();
  await send.click();

  await expect(dialog.getByRole('status')).toHaveText(successMessages.contact);
  const view = await expectSuccessView(page, dialog, 'Message sent');
  await expect(view.getByRole('button', { name: 'Close' })).toBeInViewport({ ratio: 1 });
  await expectNoAxeViolations(page, 'contact success view');
  await view.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('trial: the success view names the download as the next step', async ({ page }) => {
  const address = `phone-trial-${run}@example.com`;
  await page.goto('/?modal=trial');
  const dialog = page.getByRole('dialog', { name: 'Start your free trial' });
  await dialog.getByLabel('Email address', { exact: true }).fill(address);
  await dialog.locator('button[type=submit]').click();

  await expect(dialog.getByRole('status')).toHaveText(trialSuccessMessage(address));
  const view = await expectSuccessView(page, dialog, 'Check your inbox');
  await expect(view.getByRole('link', { name: 'Download Orgsmith' })).toBeInViewport({
    ratio: 1,
  });
  await expectNoAxeViolations(page, 'trial success view');
  await view.getByRole('link', { name: 'Download Orgsmith' }).click();
  await expect(page).toHaveURL(/\/download$/);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('manage subscription: the success view says to follow the e-mailed link', async ({ page }) => {
  await page.goto('/support?modal=portal-access');
  const dialog = page.getByRole('dialog', { name: 'Enter your email address' });
  await dialog.getByPlaceholder('Email address').fill(`phone-portal-${run}@example.com`);
  await dialog.locator('button[type=submit]').click();

  await expect(dialog.getByRole('status')).toHaveText(successMessages.portalAccess);
  const view = await expectSuccessView(page, dialog, 'Check your inbox');
  await expect(view).toContainText('The link works once and for 24 hours.');
});

test('lost key on /support: the success view replaces the form and is scrolled to', async ({
  page,
}) => {
  await page.goto('/support');
  const panel = page.getByRole('region', { name: lostKeyMessages.heading });
  await panel.getByLabel('Email address', { exact: true }).fill(`phone-lost-${run}@example.com`);
  await panel.getByRole('button', { name: 'Send' }).click();

  await expect(panel.getByRole('status')).toHaveText(lostKeyMessages.success);
  await expectSuccessView(page, panel, 'Check your inbox');
  await expectNoAxeViolations(page, 'lost-key success view');
});
