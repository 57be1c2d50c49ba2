import { modalNames } from '#app/components/dialogs/modal-url.ts';
import { pages } from '#app/pages.ts';
import { expect, test } from './support/test.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { waitForHydration } from './support/shell.ts';

// Iterates over app/pages.ts, so every page added there is checked too.
for (const info of Object.values(pages)) {
  test(`axe finds nothing on ${info.path} (with the cookie banner showing)`, async ({ page }) => {
    await page.goto(info.path);
    await waitForHydration(page);
    await expect(page.getByRole('region', { name: 'Cookies on this site' })).toBeVisible();
    await expectNoAxeViolations(page, info.path);
  });
}

test('axe finds nothing on the 404 page', async ({ page }) => {
  await page.goto('/no/such/page');
  await waitForHydration(page);
  await expect(page.getByRole('region', { name: 'Cookies on this site' })).toBeVisible();
  await expectNoAxeViolations(page, '404');
});

for (const modal of modalNames) {
  test(`axe finds nothing with the ${modal} dialog open`, async ({ page }) => {
    await page.goto(`/?modal=${modal}`);
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoAxeViolations(page, modal);
  });
}

test('axe finds nothing with a dropdown open', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Features' }).click();
  await expectNoAxeViolations(page, 'features menu');
});

test('axe finds nothing in the mobile menu at 390 px', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Contact' }).click();
  await expectNoAxeViolations(page, 'mobile menu');
});
