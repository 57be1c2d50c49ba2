import { expect, test, type Locator, type Page } from './support/test.ts';
import { dismissCookieBanner, waitForHydration } from './support/shell.ts';

/**
 * Nothing a visitor touches before hydration is lost (issue 18, item 10; decision 138). Each test
 * holds the app's entry module back, so the page is painted but not hydrated; clicks the control
 * the moment it is visible; checks that nothing happened yet (the hold works); then lets the
 * module through and sees the click take effect exactly once.
 */

/** Holds every request for the client entry until the returned function is called. */
async function holdHydration(page: Page): Promise<() => Promise<void>> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/entry.client-*.js', async (route) => {
    await released;
    await route.continue();
  });
  return async () => {
    release();
    await waitForHydration(page);
  };
}

/** Opens `path` and returns as soon as the server's HTML is there, long before hydration. */
async function openPainted(page: Page, path: string, first: Locator) {
  await page.goto(path, { waitUntil: 'commit' });
  await expect(first).toBeVisible();
}

/** Gives a click that would have an effect the time to show it, to prove nothing happened yet. */
async function expectStill(locator: Locator, name: string, value: string) {
  await locator.page().waitForTimeout(300);
  await expect(locator).toHaveAttribute(name, value);
}

function downloadEvents(page: Page): Promise<unknown[][]> {
  return page.evaluate(() =>
    (window.dataLayer ?? [])
      .map((entry) => Array.from(entry as ArrayLike<unknown>))
      .filter((args) => args[0] === 'event' && args[1] === 'downloadCli'),
  );
}

test.beforeEach(async ({ context, baseURL }) => {
  await dismissCookieBanner(context, baseURL);
});

test('imprint: “Deutsch” clicked before hydration is selected once it hydrates', async ({
  page,
}) => {
  const hydrate = await holdHydration(page);
  const deutsch = page.getByRole('tab', { name: 'Deutsch' });
  await openPainted(page, '/imprint', deutsch);
  await deutsch.click();
  await expectStill(deutsch, 'aria-selected', 'false');
  await hydrate();
  await expect(deutsch).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel')).toHaveAttribute('aria-labelledby', /tab-de$/);
});

test.describe('download page, Windows 64-bit visitor', () => {
  test.use({
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  });

  test('the suggested download clicked before hydration counts its event once, downloads once', async ({
    page,
  }) => {
    const requested: string[] = [];
    await page.route('https://downloads.orgsmith.io/**', (route) => {
      requested.push(route.request().url());
      return route.fulfill({ status: 204, body: '' });
    });
    const hydrate = await holdHydration(page);
    const suggested = page.getByTestId('suggested-download').getByRole('link');
    await openPainted(page, '/download', suggested);
    await suggested.click();
    await page.waitForTimeout(300);
    expect(requested).toEqual([]);
    await hydrate();
    await expect
      .poll(() => requested)
      .toEqual(['https://downloads.orgsmith.io/cli/orgsmith-3.2.2-win-x64.msi']);
    await expect.poll(() => downloadEvents(page)).toHaveLength(1);
    expect((await downloadEvents(page))[0]?.[2]).toMatchObject({
      event_label: 'Windows | x64 | msi',
    });
    await page.waitForTimeout(500);
    expect(await downloadEvents(page)).toHaveLength(1);
    expect(requested).toHaveLength(1);
  });

  test('a platform tab clicked before hydration stays chosen over the detected system', async ({
    page,
  }) => {
    const hydrate = await holdHydration(page);
    const linux = page.getByRole('tab', { name: 'Linux' });
    await openPainted(page, '/download', linux);
    await linux.click();
    await expectStill(linux, 'aria-selected', 'false');
    await hydrate();
    await expect(linux).toHaveAttribute('aria-selected', 'true');
    await page.waitForTimeout(300);
    await expect(linux).toHaveAttribute('aria-selected', 'true');
  });
});

test.describe('desktop header', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('a navigation dropdown clicked before hydration opens once it hydrates', async ({
    page,
  }) => {
    const hydrate = await holdHydration(page);
    const features = page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: 'Features' });
    await openPainted(page, '/pricing', features);
    await features.click();
    await expectStill(features, 'aria-expanded', 'false');
    await hydrate();
    await expect(features).toHaveAttribute('aria-expanded', 'true');
  });
});

test.describe('mobile header', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the menu tapped before hydration opens once it hydrates', async ({ page }) => {
    const hydrate = await holdHydration(page);
    const menu = page.getByRole('button', { name: 'Menu' });
    await openPainted(page, '/', menu);
    await menu.tap();
    await expectStill(menu, 'aria-expanded', 'false');
    await hydrate();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
  });
});

test('a copy button clicked before hydration copies once it hydrates', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const hydrate = await holdHydration(page);
  const copy = page
    .getByRole('main')
    .getByRole('button', { name: /^Copy / })
    .first();
  await openPainted(page, '/support', copy);
  await page.evaluate(() => navigator.clipboard.writeText('before'));
  await copy.click();
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('before');
  await hydrate();
  await expect(copy).toHaveText('Copied');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).not.toBe('before');
  expect(await copy.locator('xpath=..').locator('pre').innerText()).toBe(copied);
});

test('a dialog opener works before hydration: the link opens the page with its dialog', async ({
  page,
}) => {
  const hydrate = await holdHydration(page);
  const opener = page.getByRole('contentinfo').getByRole('link', { name: 'Send us a message' });
  await openPainted(page, '/pricing', opener);
  await opener.click();
  await page.waitForURL(/\/pricing\?modal=contact$/);
  await hydrate();
  await expect(page.getByRole('dialog')).toBeVisible();
});

test('“Cookie settings” clicked before hydration opens the banner and takes focus', async ({
  page,
}) => {
  const hydrate = await holdHydration(page);
  const settings = page.getByRole('contentinfo').getByRole('button', { name: 'Cookie settings' });
  await openPainted(page, '/imprint', settings);
  await settings.click();
  await page.waitForTimeout(300);
  await expect(page.getByRole('region', { name: 'Cookies on this site' })).toHaveCount(0);
  await hydrate();
  const banner = page.getByRole('region', { name: 'Cookies on this site' });
  await expect(banner).toBeVisible();
  await expect(banner.getByRole('heading', { name: 'Cookies on this site' })).toBeFocused();
});
