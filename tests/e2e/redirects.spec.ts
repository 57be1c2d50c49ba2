import { expect, test } from './support/test.ts';

test('/trial?ref= keeps the referral code and prefills it in the trial dialog', async ({
  page,
}) => {
  await page.goto('/trial?ref=PARTNER10');
  await expect(page).toHaveURL(/\/\?modal=trial&ref=PARTNER10$/);
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel(/Referral code/)).toHaveValue('PARTNER10');
});

test('/trial without a code lands on the plain dialog URL', async ({ request }) => {
  const response = await request.get('/trial', { maxRedirects: 0 });
  expect(response.status()).toBe(302);
  expect(response.headers()['location']).toBe('/?modal=trial');
});

test('/eula redirects for good to the CLI agreement', async ({ request, page }) => {
  for (const path of ['/eula', '/eula/', '/EULA']) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(301);
    expect(response.headers()['location'], path).toBe('/eula/cli');
  }
  await page.goto('/eula');
  await expect(page).toHaveURL(/\/eula\/cli$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('End User License Agreement');
});
