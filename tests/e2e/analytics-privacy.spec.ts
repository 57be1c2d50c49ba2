import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { freePort } from '../security/support/free-port.ts';

/**
 * Issue 17, item 7: analytics sends the vendor only allowed query parameters (campaign `utm_*`,
 * the pricing selection, `modal`), never a lost-key token, a checkout `session_id`, a fragment or
 * anything else. The e2e server runs without analytics, so this spec starts its own with
 * `GA_MEASUREMENT_ID` set. gtag.js cannot be downloaded here: a stand-in takes its place that,
 * like gtag, reads `window.dataLayer` and sends each hit to Google Analytics with
 * `dl`/`dr`/`dt` taken from `page_location`/`page_referrer`/`page_title`, or — as gtag does when
 * they are missing — from `document.location`, `document.referrer` and `document.title`.
 */

const TOKEN = 'SECRETlostKeyToken7f3a9c';
const SESSION = 'cs_test_SECRETsession5e1d2b';
const COLLECT = 'https://region1.google-analytics.com/g/collect';

const gtagStandIn = `(() => {
  const layer = (window.dataLayer = window.dataLayer || []);
  const settings = {};
  let measurementId = '';
  const hit = (name, params) => {
    const all = { ...settings, ...params };
    const query = new URLSearchParams({
      v: '2',
      tid: measurementId,
      en: name,
      dl: all.page_location ?? document.location.href,
      dr: all.page_referrer ?? document.referrer,
      dt: all.page_title ?? document.title,
    });
    for (const [key, value] of Object.entries(params ?? {})) {
      if (!key.startsWith('page_')) query.set('ep.' + key, String(value));
    }
    fetch('${COLLECT}?' + query, { method: 'POST', mode: 'no-cors', keepalive: true, body: '' });
  };
  const handle = (entry) => {
    const [command, first, second] = Array.from(entry);
    if (command === 'set' && typeof first === 'object') Object.assign(settings, first);
    if (command === 'config') {
      measurementId = first;
      Object.assign(settings, second ?? {});
      if (settings.send_page_view !== false) hit('page_view', {});
    }
    if (command === 'event') hit(first, second);
  };
  for (const entry of layer) handle(entry);
  const push = layer.push.bind(layer);
  layer.push = (...entries) => {
    const length = push(...entries);
    for (const entry of entries) handle(entry);
    return length;
  };
})();`;

interface SentRequest {
  url: string;
  body: string;
  referer: string;
}

let server: ChildProcess | undefined;
let baseUrl = '';
let dataDir = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-e2e-analytics-'));
  const port = await freePort();
  baseUrl = `http://localhost:${port}`;
  server = spawn(process.execPath, ['server/main.ts'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_BASE_URL: baseUrl,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SMTP_URL: '',
      LOG_LEVEL: 'warn',
      GA_MEASUREMENT_ID: 'G-TEST123',
    },
  });
  await expect
    .poll(async () => (await fetch(`${baseUrl}/healthz`).catch(() => undefined))?.status, {
      timeout: 90_000,
    })
    .toBe(200);
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Every request that leaves for another host, answered here; gtag.js by the stand-in. */
async function captureThirdParties(page: Page): Promise<SentRequest[]> {
  const sent: SentRequest[] = [];
  await page.route(
    (url) => url.origin !== new URL(baseUrl).origin,
    async (route) => {
      const request = route.request();
      sent.push({
        url: request.url(),
        body: request.postData() ?? '',
        referer: (await request.allHeaders())['referer'] ?? '',
      });
      if (request.url().startsWith('https://www.googletagmanager.com/gtag/js')) {
        return route.fulfill({ contentType: 'text/javascript', body: gtagStandIn });
      }
      return route.fulfill({ status: 204, body: '' });
    },
  );
  return sent;
}

/** The hits sent to Google Analytics, as the parameters of each. */
function hits(sent: SentRequest[]): URLSearchParams[] {
  return sent.filter((r) => r.url.startsWith(COLLECT)).map((r) => new URL(r.url).searchParams);
}

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
  const sent = await captureThirdParties(page);
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
  const sent = await captureThirdParties(page);
  await page.goto(`${baseUrl}/checkout-success?session_id=${SESSION}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Checkout Successful');
  await expect.poll(() => hits(sent).length).toBeGreaterThan(0);
  expect(hits(sent)[0]?.get('dl')).toBe(`${baseUrl}/checkout-success`);
  await expectNothingLeaks(page, sent, [SESSION, 'session_id']);
});

test('campaign and pricing parameters are kept; any other parameter and the fragment are not', async ({
  page,
}) => {
  const sent = await captureThirdParties(page);
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
