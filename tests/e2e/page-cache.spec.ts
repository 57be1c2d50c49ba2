import { pages } from '#app/pages.ts';
import { expect, test, type APIRequest, type APIRequestContext } from './support/test.ts';

/**
 * Page HTML is the same for every visitor, rendered once and served from memory with an ETag
 * (decision 100). Pages tied to one visitor's link are never stored or shared.
 */
const perVisit = new Set<string>([
  pages.checkoutSuccess.path,
  pages.replaceLicenceKey.path,
  pages.billingPortal.path,
  pages.quoteAccept.path,
  pages.invoiceOrder.path,
  pages.keepTrialKey.path,
  pages.licences.path,
  pages.licencesContinue.path,
]);
const shared = Object.values(pages)
  .map((page) => page.path)
  .filter((path) => !perVisit.has(path));

async function visitor(
  playwright: APIRequest,
  baseURL: string | undefined,
  headers: Record<string, string>,
): Promise<APIRequestContext> {
  return playwright.newContext({ baseURL, extraHTTPHeaders: headers });
}

test('two visitors with different cookies and browsers get byte-identical pages', async ({
  playwright,
  baseURL,
}) => {
  const first = await visitor(playwright.request, baseURL, {
    'User-Agent':
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Safari/605.1.15',
    Cookie: 'orgsmith_cookie_consent=true; orgsmith_cookie_dismissed=true; XSRF-TOKEN=abc',
  });
  const second = await visitor(playwright.request, baseURL, {
    'User-Agent': 'Mozilla/5.0 (X11; Linux aarch64; rv:128.0) Gecko/20100101 Firefox/128.0',
  });
  for (const path of [...shared, '/pricing?size=10&period=yearly&currency=EUR', '/no-such-page']) {
    const [a, b] = await Promise.all([first.get(path), second.get(`${path}`)]);
    expect(a.status(), path).toBe(path === '/no-such-page' ? 404 : 200);
    expect(await a.body(), path).toEqual(await b.body());
    expect(a.headers()['set-cookie'], path).toBeUndefined();
    expect(a.headers()['etag'], path).toBe(b.headers()['etag']);
    expect(a.headers()['cache-control'], path).toContain('s-maxage=');
    expect(a.headers()['content-security-policy'], path).not.toMatch(/nonce|unsafe-inline/);
  }
  // Parameters that are not page state (campaign tags) reach the browser, not the HTML.
  const tagged = await second.get('/imprint?utm_source=newsletter&fbclid=x');
  expect(await tagged.body()).toEqual(await (await first.get('/imprint')).body());
  await Promise.all([first.dispose(), second.dispose()]);
});

test('a revalidation with the page’s ETag is answered 304 without a body', async ({ request }) => {
  for (const path of ['/', '/pricing', '/download', '/imprint', '/no-such-page']) {
    const page = await request.get(path, { headers: { 'Accept-Encoding': 'br' } });
    const etag = page.headers()['etag'];
    expect(etag, path).toMatch(/^"[\w-]+"$/);
    expect(page.headers()['content-encoding'], path).toBe('br');
    const again = await request.get(path, {
      headers: { 'If-None-Match': etag ?? '', 'Accept-Encoding': 'br' },
    });
    expect(again.status(), path).toBe(304);
    expect((await again.body()).length, path).toBe(0);
    expect(again.headers()['x-content-type-options'], path).toBe('nosniff');
  }
});

test('the pricing page renders the quote of its URL, one stored copy per quote', async ({
  request,
}) => {
  const yearly = await (await request.get('/pricing?size=10&period=yearly&currency=EUR')).text();
  const monthly = await (await request.get('/pricing?size=10&period=monthly&currency=USD')).text();
  expect(yearly).not.toEqual(monthly);
  const slider = /<input[^>]*type="range"[^>]*>/.exec(yearly)?.[0] ?? '';
  expect(slider).toContain('value="10"');
  expect(yearly).toContain('per year');
});

test('pages of one visitor’s link are rendered for that link and never stored', async ({
  request,
}) => {
  const one = await request.get('/checkout-success?session_id=cs_test_one');
  expect(one.headers()['cache-control']).toBe('no-store');
  expect(one.headers()['etag']).toBeUndefined();
  const replace = await request.get('/replace-licence-key?token=abc');
  expect(replace.headers()['cache-control']).toBe('no-store');
  expect(replace.headers()['content-security-policy']).toContain("script-src 'self' 'sha256-");
  const portal = await request.get('/billing-portal?token=abc');
  expect(portal.headers()['cache-control']).toBe('no-store');
  expect(portal.headers()['etag']).toBeUndefined();
  const invoiceOrder = await request.get('/invoice-order?token=abc');
  expect(invoiceOrder.headers()['cache-control']).toBe('no-store');
  expect(invoiceOrder.headers()['etag']).toBeUndefined();
  // The licence page shows one signed-in visitor's licences (decision 229).
  for (const path of ['/licences', '/licences/continue?token=abc', '/licences.data']) {
    const licences = await request.get(path);
    expect(licences.headers()['cache-control'], path).toBe('no-store');
    expect(licences.headers()['etag'], path).toBeUndefined();
  }
});
