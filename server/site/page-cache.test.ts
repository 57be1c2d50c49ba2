import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { securityHeaderList } from '../http/security-headers.ts';
import {
  createPageCache,
  PAGE_CACHE_CONTROL,
  pageKeyOf,
  type PageCacheOptions,
  type PageRequest,
} from './page-cache.ts';

const script = 'window.ready = true;';
const scriptHash = `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

/** A stand-in for React Router's handler: a page naming its URL, as the renders saw them. */
function pages(overrides: Partial<PageCacheOptions> = {}) {
  const rendered: string[] = [];
  let release = '3.2.2';
  const cache = createPageCache({
    origin: 'https://orgsmith.test',
    securityHeaders: (inline) =>
      securityHeaderList({ connectOrigins: [], analytics: false, development: false }, inline),
    async render(request) {
      const url = new URL(request.url);
      rendered.push(`${url.pathname}${url.search}`);
      if (url.pathname === '/checkout-success') {
        return new Response(`<p>${url.search}</p><script>${script}</script>`, {
          headers: { 'Content-Type': 'text/html', 'Cache-Control': 'no-store' },
        });
      }
      if (url.pathname === '/trial') {
        return new Response(null, { status: 302, headers: { Location: `/?${url.search}` } });
      }
      const status = url.pathname === '/missing' ? 404 : 200;
      const body = `<html><body><h1>${url.pathname}${url.search} ${release}</h1>${'<p>text</p>'.repeat(200)}<script>${script}</script></body></html>`;
      return new Response(body, {
        status,
        headers: { 'Content-Type': 'text/html; charset=utf-8' },
      });
    },
    ...overrides,
  });
  return {
    cache,
    rendered,
    publish(version: string) {
      release = version;
    },
  };
}

function request(path: string, extra: Partial<PageRequest> = {}): PageRequest {
  const [pathname = path, query = ''] = path.split('?');
  return {
    method: 'GET',
    path: pathname,
    query,
    acceptEncoding: undefined,
    ifNoneMatch: undefined,
    https: false,
    ...extra,
  };
}

async function get(
  cache: ReturnType<typeof pages>['cache'],
  path: string,
  extra: Partial<PageRequest> = {},
) {
  const pageRequest = request(path, extra);
  return (
    cache.lookup(pageRequest) ??
    (await cache.respond(pageRequest, new Request(`https://orgsmith.test${path}`)))
  );
}

describe('pageKeyOf', () => {
  it('keeps the path and the page-state parameters in a fixed order, nothing else', () => {
    expect(pageKeyOf('/pricing', '')).toBe('/pricing');
    expect(pageKeyOf('/pricing', 'utm_source=x&currency=EUR&size=10')).toBe(
      '/pricing?size=10&currency=EUR',
    );
    expect(pageKeyOf('/', 'modal=contact&fbclid=1')).toBe('/?modal=contact');
    expect(pageKeyOf('/imprint', 'utm_source=x')).toBe('/imprint');
  });

  it('never shares route data or route manifests', () => {
    expect(pageKeyOf('/download.data', '')).toBeUndefined();
    expect(pageKeyOf('/__manifest', 'p=%2F')).toBeUndefined();
  });
});

describe('createPageCache', () => {
  it('renders a page once, also for concurrent visitors, and serves the same bytes to all', async () => {
    const { cache, rendered } = pages();
    const [first, second] = await Promise.all([get(cache, '/imprint'), get(cache, '/imprint')]);
    const third = await get(cache, '/imprint?utm_source=newsletter');
    expect(rendered).toEqual(['/imprint']);
    const bodies = await Promise.all([first, second, third].map((res) => res.text()));
    expect(new Set(bodies).size).toBe(1);
    expect(first.headers.get('cache-control')).toBe(PAGE_CACHE_CONTROL);
    expect(first.headers.get('vary')).toBe('Accept-Encoding');
    expect(first.headers.get('set-cookie')).toBeNull();
    expect(cache.size).toBe(1);
  });

  it('renders shareable pages from the path and page-state parameters alone', async () => {
    const { cache, rendered } = pages();
    const quote = await get(cache, '/pricing?fbclid=abc&size=10&currency=EUR');
    expect(await quote.text()).toContain('<h1>/pricing?size=10&currency=EUR');
    expect(rendered).toEqual(['/pricing?size=10&currency=EUR']);
    await get(cache, '/pricing');
    expect(rendered).toEqual(['/pricing?size=10&currency=EUR', '/pricing']);
  });

  it('answers brotli, gzip or identity with a strong ETag each, and 304 for any of them', async () => {
    const { cache } = pages();
    const plain = await get(cache, '/support');
    const br = await get(cache, '/support', { acceptEncoding: 'gzip, deflate, br, zstd' });
    const gz = await get(cache, '/support', { acceptEncoding: 'gzip;q=1, br;q=0' });
    const html = await plain.text();
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(html);
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(html);
    expect(Number(br.headers.get('content-length'))).toBeLessThan(html.length / 5);

    const tags = [plain, br, gz].map((res) => res.headers.get('etag'));
    expect(new Set(tags).size).toBe(3);
    for (const tag of tags) expect(tag).toMatch(/^"[\w-]+"$/);

    const revalidated = await get(cache, '/support', {
      acceptEncoding: 'br',
      ifNoneMatch: `"other", W/${tags[0]}`,
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('etag')).toBe(tags[1]);
    expect(await revalidated.text()).toBe('');
    const changed = await get(cache, '/support', { ifNoneMatch: '"stale"' });
    expect(changed.status).toBe(200);
  });

  it('answers HEAD with the headers alone', async () => {
    const { cache } = pages();
    await get(cache, '/download');
    const head = await get(cache, '/download', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(1000);
    expect(await head.text()).toBe('');
  });

  it('lists the hashes of the inline scripts in the CSP, and adds HSTS over HTTPS', async () => {
    const { cache } = pages();
    const page = await get(cache, '/');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`script-src 'self' ${scriptHash}`);
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers.get('strict-transport-security')).toBeNull();
    const secure = await get(cache, '/', { https: true });
    expect(secure.headers.get('strict-transport-security')).toContain('max-age=');
  });

  it('keeps the 404 page too, with its status', async () => {
    const { cache, rendered } = pages();
    expect((await get(cache, '/missing')).status).toBe(404);
    expect((await get(cache, '/missing')).status).toBe(404);
    expect(rendered).toEqual(['/missing']);
  });

  it('renders pages that are not shareable from the full URL every time, with their CSP', async () => {
    const { cache, rendered } = pages();
    const first = await get(cache, '/checkout-success?session_id=cs_1');
    const second = await get(cache, '/checkout-success?session_id=cs_2');
    expect(await first.text()).toContain('?session_id=cs_1');
    expect(await second.text()).toContain('?session_id=cs_2');
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.headers.get('content-security-policy')).toContain(scriptHash);
    // Learnt from the first render (made from the path alone): afterwards straight from the URL.
    expect(rendered).toEqual([
      '/checkout-success',
      '/checkout-success?session_id=cs_1',
      '/checkout-success?session_id=cs_2',
    ]);
    const redirect = await get(cache, '/trial?ref=partner');
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('/??ref=partner');
    expect(cache.size).toBe(0);
  });

  it('drops every page when cleared, and discards a render that was running', async () => {
    const state = pages();
    await get(state.cache, '/download');
    state.publish('3.3.0');
    expect(await (await get(state.cache, '/download')).text()).toContain('3.2.2');
    state.cache.clear();
    expect(await (await get(state.cache, '/download')).text()).toContain('3.3.0');

    const running = get(state.cache, '/');
    state.cache.clear();
    await running;
    expect(state.cache.lookup(request('/'))).toBeUndefined();
  });

  it('renders the pages it dropped again in the background, and warms pages on request', async () => {
    const state = pages();
    await state.cache.warm(['/', '/pricing?size=10', '/checkout-success']);
    expect(state.cache.size).toBe(2);
    state.publish('3.3.0');
    state.cache.clear();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await state.cache.lookup(request('/pricing?size=10'))?.text()).toContain('3.3.0');
    expect(state.rendered.filter((url) => url === '/')).toHaveLength(2);
  });

  it('counts hits and misses and reports the pages and bytes it holds', async () => {
    const { cache } = pages();
    expect(cache.stats()).toEqual({ hits: 0, misses: 0, pages: 0, bytes: 0 });
    await get(cache, '/imprint');
    await get(cache, '/imprint');
    await get(cache, '/imprint', { acceptEncoding: 'br' });
    await get(cache, '/checkout-success?session_id=cs_1');
    const stats = cache.stats();
    expect(stats).toMatchObject({ hits: 2, misses: 2, pages: 1 });
    const page = await get(cache, '/imprint');
    const identity = (await page.arrayBuffer()).byteLength;
    // Identity, brotli and gzip bodies together.
    expect(stats.bytes).toBeGreaterThan(identity);
    expect(stats.bytes).toBeLessThan(identity * 2);
    cache.clear();
    expect(cache.stats()).toMatchObject({ pages: 0, bytes: 0 });
  });

  it('keeps at most maxEntries pages, dropping the oldest', async () => {
    const { cache } = pages({ maxEntries: 2 });
    await get(cache, '/a');
    await get(cache, '/b');
    await get(cache, '/c');
    expect(cache.size).toBe(2);
    expect(cache.lookup(request('/a'))).toBeUndefined();
    expect(cache.lookup(request('/c'))).toBeDefined();
  });

  it('renders an old page again in the background and serves the old copy meanwhile', async () => {
    let now = 0;
    const state = pages({ maxAgeMs: 1_000, now: () => now });
    await get(state.cache, '/privacy');
    state.publish('3.3.0');
    now = 5_000;
    const stale = state.cache.lookup(request('/privacy'));
    expect(await stale?.text()).toContain('3.2.2');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await state.cache.lookup(request('/privacy'))?.text()).toContain('3.3.0');
    expect(state.rendered).toEqual(['/privacy', '/privacy']);
  });
});
