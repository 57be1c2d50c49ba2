import { CONSENT_COOKIE, DISMISSED_COOKIE } from '#app/analytics/consent-cookies.ts';
import { expect, test, type BrowserContext, type Page } from './support/test.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import {
  captureThirdParties,
  COLLECT,
  hits,
  startAnalyticsServer,
  type AnalyticsServer,
  type SentRequest,
} from './support/analytics-server.ts';
import { waitForHydration } from './support/shell.ts';

/**
 * Issue 18, item 8: consent given can be withdrawn from every page (decision 138). "Cookie
 * settings" in the footer reopens the banner; "Only essential" then denies the tag at once, sends
 * nothing more, deletes the `_ga` cookies and records `false` in the consent cookie. Runs on a
 * server of its own with analytics and a gtag stand-in (support/analytics-server.ts).
 */

let server: AnalyticsServer | undefined;
let baseUrl = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startAnalyticsServer();
  baseUrl = server.baseUrl;
});

test.afterAll(async () => {
  await server?.stop();
});

const banner = (page: Page) => page.getByRole('region', { name: 'Cookies on this site' });
const footer = (page: Page) => page.getByRole('contentinfo');
const cookieSettings = (page: Page) =>
  footer(page).getByRole('button', { name: 'Cookie settings' });

/** Requests to Google's tag and analytics hosts. */
function toAnalytics(sent: SentRequest[]): string[] {
  return sent
    .map((request) => request.url)
    .filter((url) => /googletagmanager\.com|google-analytics\.com/.test(new URL(url).host));
}

async function analyticsCookies(context: BrowserContext): Promise<string[]> {
  const cookies = await context.cookies();
  return cookies.filter((cookie) => /^_ga(_|$)/.test(cookie.name)).map((cookie) => cookie.name);
}

async function consentUpdates(page: Page): Promise<unknown[]> {
  return page.evaluate(() =>
    (window.dataLayer ?? [])
      .map((entry) => Array.from(entry as ArrayLike<unknown>))
      .filter((args) => args[0] === 'consent' && args[1] === 'update')
      .map((args) => args[2]),
  );
}

test('the footer’s button is in every visitor’s stored page: the same bytes with or without consent', async () => {
  const plain = await fetch(`${baseUrl}/imprint`);
  const consented = await fetch(`${baseUrl}/imprint`, {
    headers: { cookie: `${CONSENT_COOKIE}=true; ${DISMISSED_COOKIE}=true; _ga=GA1.1.1.1` },
  });
  expect(plain.headers.get('cache-control')).toContain('public');
  expect(consented.headers.get('etag')).toBe(plain.headers.get('etag'));
  const html = await consented.text();
  expect(html).toBe(await plain.text());
  expect(html).toMatch(/<button type="button"[^>]*>Cookie settings<\/button>/);
});

test('accept, events flow; withdraw from the footer by keyboard: analytics stop, cookies go', async ({
  page,
  context,
}) => {
  const sent = await captureThirdParties(page, baseUrl);
  // The stored page, as every visitor gets it (the test above asked for it first).
  await page.goto(`${baseUrl}/imprint`);
  await banner(page).getByRole('button', { name: 'Accept all' }).click();
  await expect(banner(page)).toBeHidden();

  // Events flow: a page view of the next page reaches Google Analytics; gtag wrote its cookies.
  await footer(page).getByRole('link', { name: 'Pricing' }).click();
  await expect(page).toHaveURL(`${baseUrl}/pricing`);
  await expect
    .poll(() => hits(sent).map((hit) => new URL(hit.get('dl') ?? '').pathname))
    .toContain('/pricing');
  await expect.poll(() => analyticsCookies(context)).toEqual(['_ga', '_ga_TEST123']);
  // gtag may also have written them for the parent domain.
  await context.addCookies([
    { name: '_ga_PARENT', value: 'GS1.1.1', domain: '.localhost', path: '/' },
  ]);
  expect((await analyticsCookies(context)).sort()).toEqual(['_ga', '_ga_PARENT', '_ga_TEST123']);

  // From the Privacy link, Tab reaches "Cookie settings"; Enter opens the banner and moves focus in.
  await footer(page).getByRole('link', { name: 'Privacy' }).focus();
  await page.keyboard.press('Tab');
  await expect(cookieSettings(page)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(banner(page)).toBeVisible();
  await expect(cookieSettings(page)).toHaveAttribute('aria-expanded', 'true');
  await expect(banner(page).getByRole('heading', { name: 'Cookies on this site' })).toBeFocused();
  await expect(banner(page)).toContainText('You accepted analytics cookies.');
  await expectNoAxeViolations(page, '/pricing with the cookie settings open');

  // Tab past the privacy-policy link to "Only essential"; Enter withdraws; focus comes back.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  const onlyEssential = banner(page).getByRole('button', { name: 'Only essential' });
  await expect(onlyEssential).toBeFocused();
  const before = toAnalytics(sent).length;
  await page.keyboard.press('Enter');
  await expect(banner(page)).toBeHidden();
  await expect(cookieSettings(page)).toBeFocused();
  await expect(cookieSettings(page)).toHaveAttribute('aria-expanded', 'false');

  expect((await consentUpdates(page)).at(-1)).toEqual({
    ad_storage: 'denied',
    analytics_storage: 'denied',
    ad_user_data: 'denied',
    ad_personalization: 'denied',
  });
  expect(await analyticsCookies(context)).toEqual([]);
  const banners = await context.cookies();
  expect(banners.find((cookie) => cookie.name === CONSENT_COOKIE)?.value).toBe('false');
  expect(banners.find((cookie) => cookie.name === DISMISSED_COOKIE)?.value).toBe('true');

  // Nothing more leaves for analytics: not on the next page in the app, not on a download click…
  await footer(page).getByRole('link', { name: 'Download' }).click();
  await expect(page).toHaveURL(`${baseUrl}/download`);
  await page.getByTestId('suggested-download').getByRole('link').click();
  // …nor on a later visit: no tag is loaded, no event sent, no banner shown.
  await page.goto(`${baseUrl}/support`);
  await waitForHydration(page);
  await page.waitForTimeout(1000);
  expect(toAnalytics(sent).slice(before)).toEqual([]);
  expect(hits(sent).every((hit) => hit.get('dl') !== `${baseUrl}/support`)).toBe(true);
  await expect(banner(page)).toHaveCount(0);
  expect(await analyticsCookies(context)).toEqual([]);

  // Consent given again from the settings: analytics run again.
  await cookieSettings(page).click();
  await expect(banner(page)).toContainText('You allow only essential cookies.');
  await banner(page).getByRole('button', { name: 'Accept all' }).click();
  await expect(cookieSettings(page)).toBeFocused();
  await footer(page).getByRole('link', { name: 'Imprint' }).click();
  await expect.poll(() => toAnalytics(sent).slice(before)).not.toEqual([]);
  expect(sent.filter((request) => request.url.startsWith(COLLECT)).length).toBeGreaterThan(0);
});

test('Esc closes the reopened banner without a new choice and gives focus back', async ({
  page,
  context,
}) => {
  await context.addCookies([
    { name: DISMISSED_COOKIE, value: 'true', url: baseUrl, sameSite: 'Strict' },
  ]);
  await captureThirdParties(page, baseUrl);
  await page.goto(`${baseUrl}/eula`);
  await waitForHydration(page);
  await cookieSettings(page).focus();
  await page.keyboard.press('Enter');
  await expect(banner(page).getByRole('heading', { name: 'Cookies on this site' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(banner(page)).toBeHidden();
  await expect(cookieSettings(page)).toBeFocused();
  const cookies = await context.cookies();
  expect(cookies.map((cookie) => cookie.name)).toEqual([DISMISSED_COOKIE]);
});
