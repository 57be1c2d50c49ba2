import {
  captureThirdParties,
  hits,
  startAnalyticsServer,
  type AnalyticsServer,
  type SentRequest,
} from './support/analytics-server.ts';
import { expect, test, type Page } from './support/test.ts';

/**
 * Issue 17, item 7: analytics sends the vendor only allowed query parameters (campaign `utm_*`,
 * the pricing selection, `modal`), never a lost-key token, a checkout `session_id`, a fragment or
 * anything else. Runs on a server of its own with analytics and a gtag stand-in
 * (support/analytics-server.ts).
 */

const TOKEN = 'SECRETlostKeyToken7f3a9c';
const SESSION = 'cs_test_SECRETsession5e1d2b';

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

async function dataLayerText(page: Page): Promise<string> {
  return page.evaluate(() =>
    // Entries are `arguments` objects: their values in order are the gtag call.
    JSON.stringify(
      (window.dataLayer ?? []).map((entry) =>
        typeof entry === 'object' && entry !== null ? Object.values(entry) : entry,
      ),
    ),
  );
}

/** Nothing that left the site, and nothing our code gave gtag, holds any of `secrets`. */
async function expectNothingLeaks(page: Page, sent: SentRequest[], secrets: string[]) {
  const layer = await dataLayerText(page);
  for (const secret of secrets) {
    expect(layer, `dataLayer holds ${secret}`).not.toContain(secret);
    for (const request of sent) {
      const seen = `${decodeURIComponent(request.url)} ${request.body} ${request.referer}`;
      expect(seen, `a request to ${new URL(request.url).host} holds ${secret}`).not.toContain(
        secret,
      );
    }
  }
}

test('the lost-key token never reaches analytics, not even as the next page’s referrer', async ({
  page,
}) => {
  const sent = await captureThirdParties(page, baseUrl);
  await page.goto(`${baseUrl}/replace-licence-key?token=${TOKEN}&utm_source=mail`);
  await expect.poll(() => hits(sent).length).toBeGreaterThan(0);
  const [view] = hits(sent);
  expect(view?.get('tid')).toBe('G-TEST123');
  expect(view?.get('en')).toBe('page_view');
  expect(view?.get('dl')).toBe(`${baseUrl}/replace-licence-key?utm_source=mail`);

  // A full page load from the link's page: the browser's referrer holds the whole link.
  await page.evaluate(() => window.location.assign('/download'));
  await page.waitForURL(`${baseUrl}/download`);
  expect(await page.evaluate(() => document.referrer)).toContain(TOKEN);
  await expect.poll(() => hits(sent).map((h) => h.get('dl'))).toContain(`${baseUrl}/download`);
  const next = hits(sent).find((h) => h.get('dl') === `${baseUrl}/download`);
  expect(next?.get('dr')).toBe(`${baseUrl}/replace-licence-key?utm_source=mail`);
  await expectNothingLeaks(page, sent, [TOKEN, 'token=']);
});

test('the checkout session id never reaches analytics', async ({ page }) => {
  const sent = await captureThirdParties(page, baseUrl);
  await page.goto(`${baseUrl}/checkout-success?session_id=${SESSION}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Checkout Successful');
  await expect.poll(() => hits(sent).length).toBeGreaterThan(0);
  expect(hits(sent)[0]?.get('dl')).toBe(`${baseUrl}/checkout-success`);
  await expectNothingLeaks(page, sent, [SESSION, 'session_id']);
});

test('campaign and pricing parameters are kept; any other parameter and the fragment are not', async ({
  page,
}) => {
  const sent = await captureThirdParties(page, baseUrl);
  await page.goto(`${baseUrl}/pricing?size=10&period=yearly&utm_source=x&email=a@b.c#frag`);
  await expect.poll(() => hits(sent).length).toBeGreaterThan(0);
  const location = new URL(hits(sent)[0]?.get('dl') ?? '');
  expect(location.pathname).toBe('/pricing');
  expect(location.searchParams.get('utm_source')).toBe('x');
  expect(location.searchParams.get('size')).toBe('10');
  expect(location.searchParams.get('period')).toBe('yearly');
  expect(location.hash).toBe('');
  await expectNothingLeaks(page, sent, ['email=', 'a@b.c', '#frag']);
});
