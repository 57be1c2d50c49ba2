import {
  clickInPlace,
  dismissCookieBanner,
  makePagesTall,
  pageViews,
  waitForHydration,
} from './support/shell.ts';
import { expect, test, type Page } from './support/test.ts';

const headings = {
  contact: 'Get in touch',
  'portal-access': 'Enter your email address',
  trial: 'Start your free trial',
  quote: 'Get a quote or pay by invoice',
} as const;

const startForFree = (page: Page) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Start for Free' });

async function focusIsInside(page: Page, selector: string) {
  return page.evaluate((sel) => {
    const root = document.querySelector(sel);
    return Boolean(root && document.activeElement && root.contains(document.activeElement));
  }, selector);
}

test.beforeEach(async ({ context, baseURL }) => {
  await dismissCookieBanner(context, baseURL);
});

test.use({ viewport: { width: 1280, height: 800 } });

for (const [modal, heading] of Object.entries(headings)) {
  test(`?modal=${modal} opens its dialog on any page; the close button removes the parameter`, async ({
    page,
  }) => {
    await page.goto(`/pricing?modal=${modal}`);
    const dialog = page.getByRole('dialog', { name: heading });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('heading', { level: 2, name: heading })).toBeVisible();
    expect(await focusIsInside(page, 'dialog[open]')).toBe(true);
    await dialog.getByRole('button', { name: 'Close dialog' }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL('/pricing');
  });
}

test('an unknown dialog name opens nothing', async ({ page }) => {
  await page.goto('/?modal=login');
  await waitForHydration(page);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('opening keeps focus inside, Esc closes and focus returns to the opener', async ({ page }) => {
  await page.goto('/');
  await waitForHydration(page);
  await startForFree(page).click();
  await expect(page).toHaveURL('/?modal=trial');
  const dialog = page.getByRole('dialog', { name: headings.trial });
  await expect(dialog).toBeVisible();
  for (let i = 0; i < 6; i += 1) {
    expect(await focusIsInside(page, 'dialog[open]')).toBe(true);
    await page.keyboard.press(i % 2 ? 'Shift+Tab' : 'Tab');
  }
  for (let i = 0; i < 4; i += 1) {
    await page.keyboard.press('Tab');
    expect(await focusIsInside(page, 'dialog[open]')).toBe(true);
  }
  // The page behind is inert.
  expect(
    await page.evaluate(() => document.querySelector('main')?.matches(':modal') ?? false),
  ).toBe(false);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL('/');
  await expect(startForFree(page)).toBeFocused();

  // Esc again, now with nothing open, changes nothing; a second round works the same.
  await page.keyboard.press('Escape');
  await startForFree(page).click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL('/');
});

test('the back button closes a dialog and forward opens it again', async ({ page }) => {
  await page.goto('/download');
  await waitForHydration(page);
  await startForFree(page).click();
  const dialog = page.getByRole('dialog', { name: headings.trial });
  await expect(dialog).toBeVisible();
  await page.goBack();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL('/download');
  await page.goForward();
  await expect(dialog).toBeVisible();
  await page.getByRole('button', { name: 'Close dialog' }).click();
  await expect(page).toHaveURL('/download');
  // Closing went back, so the history holds no dialog entry after the page.
  await page.goBack();
  await expect(page).not.toHaveURL(/modal=/);
});

test('other query parameters and the hash survive opening and closing', async ({ page }) => {
  await page.goto('/imprint?lang=de');
  await waitForHydration(page);
  await page
    .getByRole('contentinfo')
    .getByRole('navigation', { name: 'Contact' })
    .getByRole('link', { name: 'Send us a message' })
    .click();
  await expect(page).toHaveURL('/imprint?lang=de&modal=contact');
  await page.getByRole('button', { name: 'Close dialog' }).click();
  await expect(page).toHaveURL('/imprint?lang=de');
});

test('opening and closing a dialog neither scrolls nor counts a page view', async ({ page }) => {
  await page.goto('/pricing');
  await waitForHydration(page);
  await makePagesTall(page);
  await page.evaluate(() => window.scrollTo(0, 1200));
  await page.waitForFunction(() => window.scrollY === 1200);
  expect(await pageViews(page)).toEqual(['/pricing']);

  await clickInPlace(page, startForFree(page));
  await expect(page.getByRole('dialog')).toBeVisible();
  expect(await page.evaluate(() => window.scrollY)).toBe(1200);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
  expect(await page.evaluate(() => window.scrollY)).toBe(1200);

  await clickInPlace(page, startForFree(page));
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('dialog')).toBeHidden();
  expect(await page.evaluate(() => window.scrollY)).toBe(1200);
  expect(await pageViews(page)).toEqual(['/pricing']);
});

test('opening and closing a dialog keeps the page data: no round trip to the server', async ({
  page,
}) => {
  // The page data of a client-side navigation comes as `<path>.data` (React Router's single fetch).
  const dataRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith('.data')) dataRequests.push(request.url());
  });
  for (const path of ['/', '/download', '/support']) {
    await page.goto(path);
    await waitForHydration(page);
    await startForFree(page).click();
    await expect(page.getByRole('dialog', { name: headings.trial })).toBeVisible();
    await page.getByRole('button', { name: 'Close dialog' }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await page.goForward();
    await expect(page.getByRole('dialog', { name: headings.trial })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(path);
  }
  expect(dataRequests).toEqual([]);

  // A step to another page still asks for its data.
  await page.getByRole('contentinfo').getByRole('link', { name: 'Download', exact: true }).click();
  await expect(page).toHaveURL('/download');
  expect(dataRequests.map((url) => new URL(url).pathname)).toEqual(['/download.data']);
});

test('a dialog on a URL with an #anchor does not jump to the anchor', async ({ page }) => {
  await page.goto('/privacy#footer-contact');
  await waitForHydration(page);
  await makePagesTall(page);
  await page.evaluate(() => window.scrollTo(0, 300));
  await page.waitForFunction(() => window.scrollY === 300);
  await clickInPlace(page, startForFree(page));
  await expect(page).toHaveURL('/privacy?modal=trial#footer-contact');
  await expect(page.getByRole('dialog')).toBeVisible();
  expect(await page.evaluate(() => window.scrollY)).toBe(300);
  await clickInPlace(page, page.getByRole('button', { name: 'Close dialog' }));
  await expect(page).toHaveURL('/privacy#footer-contact');
  expect(await page.evaluate(() => window.scrollY)).toBe(300);
});
