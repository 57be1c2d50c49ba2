import {
  CONSENT_COOKIE,
  CONSENT_COOKIE_DAYS,
  DISMISSED_COOKIE,
} from '#app/analytics/consent-cookies.ts';
import { expect, test, type BrowserContext, type Page } from './support/test.ts';
import { waitForHydration } from './support/shell.ts';

const day = 24 * 60 * 60;
// Chromium keeps no cookie longer than 400 days, whatever lifetime is asked for.
const chromiumMaxDays = 400;

const banner = (page: Page) => page.getByRole('region', { name: 'Cookies on this site' });

/** Records every `document.cookie` assignment, to check what the page asked the browser to store. */
async function recordCookieWrites(page: Page) {
  await page.addInitScript(() => {
    const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
    const writes: string[] = [];
    Object.defineProperty(window, '__cookieWrites', { value: writes });
    Object.defineProperty(document, 'cookie', {
      configurable: true,
      get: () => descriptor?.get?.call(document),
      set: (value: string) => {
        writes.push(value);
        descriptor?.set?.call(document, value);
      },
    });
  });
}

function cookieWrites(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const writes: unknown = Reflect.get(window, '__cookieWrites');
    return Array.isArray(writes) ? writes.map(String) : [];
  });
}

async function bannerCookies(context: BrowserContext) {
  const cookies = await context.cookies();
  return cookies.filter((cookie) => [CONSENT_COOKIE, DISMISSED_COOKIE].includes(cookie.name));
}

function expectWrittenFor3650Days(write: string | undefined, name: string) {
  expect(write).toBeDefined();
  const attributes = (write ?? '').split('; ');
  expect(attributes[0]).toBe(`${name}=true`);
  expect(attributes).toContain(`Max-Age=${CONSENT_COOKIE_DAYS * day}`);
  expect(attributes).toContain('Path=/');
  expect(attributes).toContain('SameSite=Strict');
  const expires = attributes.find((part) => part.startsWith('Expires='));
  const expiresAt = Date.parse(expires?.slice('Expires='.length) ?? '');
  expect(Math.abs(expiresAt - Date.now() - CONSENT_COOKIE_DAYS * day * 1000)).toBeLessThan(60_000);
}

function expectStoredAttributes(cookie: Awaited<ReturnType<typeof bannerCookies>>[number]) {
  expect(cookie.value).toBe('true');
  expect(cookie.path).toBe('/');
  expect(cookie.sameSite).toBe('Strict');
  const days = (cookie.expires - Date.now() / 1000) / day;
  expect(days).toBeGreaterThan(Math.min(CONSENT_COOKIE_DAYS, chromiumMaxDays) - 1);
  expect(days).toBeLessThanOrEqual(CONSENT_COOKIE_DAYS);
}

test('the banner is not in the server HTML', async ({ request }) => {
  const html = await (await request.get('/')).text();
  expect(html).not.toContain('Cookies on this site');
  expect(html).not.toContain('Accept all');
});

test('"Accept all" sets both cookies, grants consent and hides the banner for good', async ({
  page,
  context,
}) => {
  await recordCookieWrites(page);
  await page.goto('/');
  await expect(banner(page)).toBeVisible();
  await banner(page).getByRole('button', { name: 'Accept all' }).click();
  await expect(banner(page)).toBeHidden();

  const writes = await cookieWrites(page);
  expectWrittenFor3650Days(
    writes.find((write) => write.startsWith(`${CONSENT_COOKIE}=`)),
    CONSENT_COOKIE,
  );
  expectWrittenFor3650Days(
    writes.find((write) => write.startsWith(`${DISMISSED_COOKIE}=`)),
    DISMISSED_COOKIE,
  );
  const cookies = await bannerCookies(context);
  expect(cookies.map((cookie) => cookie.name).sort()).toEqual(
    [CONSENT_COOKIE, DISMISSED_COOKIE].sort(),
  );
  cookies.forEach(expectStoredAttributes);

  const consentUpdates = () =>
    page.evaluate(
      () =>
        (window.dataLayer ?? [])
          .filter(
            (entry): entry is ArrayLike<unknown> => typeof entry === 'object' && entry !== null,
          )
          .map((entry) => Array.from(entry))
          .filter((args) => args[0] === 'consent' && args[1] === 'update').length,
    );
  expect(await consentUpdates()).toBe(1);

  // A later visit: no banner, and consent is granted as analytics starts.
  await page.goto('/pricing');
  await waitForHydration(page);
  await page.waitForTimeout(300);
  await expect(banner(page)).toHaveCount(0);
  expect(await consentUpdates()).toBe(1);
});

test('"Only essential" sets only the dismissed cookie and grants nothing', async ({
  page,
  context,
}) => {
  await recordCookieWrites(page);
  await page.goto('/download');
  await banner(page).getByRole('button', { name: 'Only essential' }).click();
  await expect(banner(page)).toBeHidden();

  const writes = await cookieWrites(page);
  expect(writes.some((write) => write.startsWith(`${CONSENT_COOKIE}=`))).toBe(false);
  expectWrittenFor3650Days(
    writes.find((write) => write.startsWith(`${DISMISSED_COOKIE}=`)),
    DISMISSED_COOKIE,
  );
  const cookies = await bannerCookies(context);
  expect(cookies.map((cookie) => cookie.name)).toEqual([DISMISSED_COOKIE]);
  cookies.forEach(expectStoredAttributes);

  await page.reload();
  await waitForHydration(page);
  await page.waitForTimeout(300);
  await expect(banner(page)).toHaveCount(0);
  const granted = await page.evaluate(() =>
    (window.dataLayer ?? [])
      .filter((entry): entry is ArrayLike<unknown> => typeof entry === 'object' && entry !== null)
      .some((entry) => Array.from(entry)[1] === 'update'),
  );
  expect(granted).toBe(false);
});

test('the banner does not steal focus or block the page', async ({ page }) => {
  await page.goto('/');
  await expect(banner(page)).toBeVisible();
  await expect(banner(page).getByRole('button', { name: 'Accept all' })).not.toBeFocused();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Pricing' })
    .click();
  await expect(page).toHaveURL('/pricing');
  await expect(banner(page)).toBeVisible();
});
