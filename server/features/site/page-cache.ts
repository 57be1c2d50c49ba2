import { createHash, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gunzipSync, gzip } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { pickEncoding } from '#server/platform/http/compression.ts';
import { HSTS_HEADER, type InlineHashes } from '#server/platform/http/security-headers.ts';
import { ownInlineCode } from './inline-hashes.ts';
import { NOT_FOUND_PATH, type PageAddress, type ResolvePage } from './page-address.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * How browsers and shared caches may keep a page: browsers revalidate every time (a 304 by
 * ETag), a CDN or the reverse proxy serves it for a minute and a stale copy for ten more while it
 * fetches the new one. A minute bounds how long a CDN shows a release catalog that just changed;
 * our own instances drop their copies at once (decision 100).
 */
export const PAGE_CACHE_CONTROL = 'public, max-age=0, s-maxage=60, stale-while-revalidate=600';

/**
 * The byte budget of the page variants (quotes, open dialogs): about 240 pricing pages of
 * 17 kB (brotli and gzip bytes), more than visitors share at once; someone walking every
 * valid quote evicts only other variants, never a route's own page (decision 120). 4 MiB, not
 * 32: the budget is resident memory of every instance (decisions 135, 147).
 */
export const VARIANT_BUDGET_BYTES = 4 * 1024 * 1024;

/** Pages are documents: no route of the site takes a form or an action (decision 120). */
const DOCUMENT_METHODS = 'GET, HEAD';

type Encoding = 'br' | 'gzip';
const encodings: readonly Encoding[] = ['br', 'gzip'];

type HeaderList = ReadonlyArray<readonly [string, string]>;

/** One stored representation of a page: its bytes and every header it is sent with. */
interface Representation {
  /**
   * `null` for a variant's identity representation: its bytes are not kept but inflated from the
   * gzip bytes for the rare client that accepts neither encoding (decision 135). A route's own page
   * and the 404 page keep them: bounded by the route table, and served at full speed (decision 148).
   */
  body: Uint8Array<ArrayBuffer> | null;
  etag: string;
  headers: Record<string, string>;
  httpsHeaders: Record<string, string>;
  notModified: Record<string, string>;
  httpsNotModified: Record<string, string>;
}

export interface CachedPage {
  status: number;
  identity: Representation;
  br: Representation;
  gzip: Representation;
  /** The ETags of all three representations: a client holding any of them has this page. */
  etags: ReadonlySet<string>;
  /** Its stored bodies together (brotli, gzip, and identity where kept): what it costs the store. */
  bytes: number;
  renderedAt: number;
}

/** What the store reports about a page it just stored (the server logs it). */
export interface StoredPage {
  key: string;
  status: number;
  /** Render, hashing and compression. */
  ms: number;
  bytes: number;
  /** Pages now stored, and the bytes of the variants among them. */
  pages: number;
  variantBytes: number;
}

export interface PageCacheOptions {
  /**
   * Renders a document (React Router's handler), putting `mark` on every inline script it writes:
   * only those are hashed for the CSP (decision 120).
   */
  render(request: Request, mark: string): Promise<Response>;
  /** Where a request's page is stored and what it is rendered from (`createPageResolver`). */
  resolve: ResolvePage;
  /** The security headers of a document whose inline code has these hashes (no HSTS). */
  securityHeaders(inline: InlineHashes): HeaderList;
  /** Public origin the render requests are made on (`PUBLIC_BASE_URL`). */
  origin: string;
  /** Byte budget of the variants; the least recently used go first (default `VARIANT_BUDGET_BYTES`, 4 MiB). */
  maxVariantBytes?: number;
  /** After this long a page is rendered again (in the background; the old copy serves meanwhile). */
  maxAgeMs?: number;
  now?: () => number;
  /** Told about every page stored. */
  onStore?(page: StoredPage): void;
}

/** What the request side of the cache needs to know; built by the Hono middleware. */
export interface PageRequest {
  method: string;
  path: string;
  /** The raw query string without `?` (may be empty). */
  query: string;
  acceptEncoding: string | undefined;
  ifNoneMatch: string | undefined;
  https: boolean;
}

export interface PageCache {
  /** A stored page's answer to a GET or HEAD request; undefined on a miss. */
  find(request: PageRequest): StoredAnswer | undefined;
  /** `find` as a finished response. */
  lookup(request: PageRequest): Response | undefined;
  /**
   * Answers a document request no other route took: renders its page once (concurrent requests for
   * the same page wait for that render), stores it when it is shareable, and answers from the
   * store; every unknown path gets the one stored 404 page. Pages that are not shareable are
   * rendered from the full request every time, with their CSP.
   */
  respond(request: PageRequest, raw: Request): Promise<Response>;
  /**
   * Drops every stored page (the release catalog changed); renders already running are discarded.
   * The pages that were stored are rendered again in the background, one at a time.
   */
  clear(): void;
  /** Renders the pages of these URLs (path and query) in the background, one at a time. */
  warm(urls: readonly string[]): Promise<void>;
  /** Pages stored: route pages, variants and the 404 page. */
  readonly size: number;
  /** Bytes of the stored variants, within `maxVariantBytes`. */
  readonly variantBytes: number;
  /** Counts since start, and what is stored now (read by `/metrics`). */
  stats(): PageCacheStats;
}

export interface PageCacheStats {
  /** Requests answered from the store. */
  hits: number;
  /** Document requests that needed a render (or waited for one). */
  misses: number;
  pages: number;
  /** The bodies of every stored page: brotli and gzip. */
  bytes: number;
}

/** Weak comparison (RFC 9110 §13.1.2): `W/"x"` matches `"x"`; `*` matches anything. */
function matchesAny(ifNoneMatch: string, etags: ReadonlySet<string>): boolean {
  for (const part of ifNoneMatch.split(',')) {
    const tag = part.trim().replace(/^W\//, '');
    if (tag === '*' || etags.has(tag)) return true;
  }
  return false;
}

/** Headers a stored page keeps from the render; the cache sets the rest itself. */
const droppedHeaders = new Set([
  'content-length',
  'content-encoding',
  'cache-control',
  'etag',
  'vary',
  'content-security-policy',
]);

/** A render's response may be shared only when nothing in it is specific to one visitor. */
function isShareable(response: Response): boolean {
  return (
    (response.status === 200 || response.status === 404) &&
    (response.headers.get('content-type') ?? '').startsWith('text/html') &&
    !response.headers.has('cache-control') &&
    !response.headers.has('set-cookie') &&
    !response.headers.has('vary')
  );
}

/**
 * The smallest brotli window holding the whole page: the same bytes out as the default 4 MiB
 * window, while quality 11's match finder allocates memory in proportion to the window (32 MiB at
 * the default, in native memory the allocator rarely hands back; decision 135).
 */
export function brotliWindowBits(bytes: number): number {
  const fits = Math.ceil(Math.log2(Math.max(bytes, 1) + 16));
  return Math.min(
    Math.max(fits, constants.BROTLI_MIN_WINDOW_BITS),
    constants.BROTLI_MAX_WINDOW_BITS,
  );
}

async function representations(
  status: number,
  html: string,
  renderHeaders: Headers,
  security: HeaderList,
  now: number,
  keepIdentity: boolean,
): Promise<CachedPage> {
  const identity = Buffer.from(html, 'utf8');
  const [br, gz] = await Promise.all([
    brotli(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
        [constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(identity.length),
      },
    }),
    gzipAsync(identity, { level: 9 }),
  ]);
  const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 27);
  const common: Record<string, string> = {};
  renderHeaders.forEach((value, name) => {
    if (!droppedHeaders.has(name)) common[name] = value;
  });
  for (const [name, value] of security) common[name] = value;
  common['cache-control'] = PAGE_CACHE_CONTROL;
  common['vary'] = 'Accept-Encoding';

  const represent = (bytes: Buffer, encoding: Encoding | undefined): Representation => {
    // Copied once into a plain array buffer, which every Response body accepts.
    const body = encoding || keepIdentity ? new Uint8Array(bytes) : null;
    const etag = encoding ? `"${hash}-${encoding}"` : `"${hash}"`;
    const notModified: Record<string, string> = { ...common, etag };
    delete notModified['content-type'];
    const headers: Record<string, string> = {
      ...common,
      etag,
      'content-length': String(bytes.length),
    };
    if (encoding) headers['content-encoding'] = encoding;
    const [hstsName, hstsValue] = HSTS_HEADER;
    return {
      body,
      etag,
      headers,
      httpsHeaders: { ...headers, [hstsName.toLowerCase()]: hstsValue },
      notModified,
      httpsNotModified: { ...notModified, [hstsName.toLowerCase()]: hstsValue },
    };
  };
  const page = {
    status,
    identity: represent(identity, undefined),
    br: represent(br, 'br'),
    gzip: represent(gz, 'gzip'),
    bytes: br.length + gz.length + (keepIdentity ? identity.length : 0),
    renderedAt: now,
  };
  return { ...page, etags: new Set([page.identity.etag, page.br.etag, page.gzip.etag]) };
}

function inflate(gzipped: Uint8Array<ArrayBuffer> | null): Uint8Array<ArrayBuffer> {
  if (!gzipped) throw new Error('a stored page has no gzip bytes');
  return new Uint8Array(gunzipSync(gzipped));
}

/**
 * A stored page's answer to one request, before it is a `Response`: the Node fast path writes it
 * to the socket as it is (decision 150), the Hono middleware wraps it.
 */
export interface StoredAnswer {
  status: number;
  headers: Readonly<Record<string, string>>;
  /** `null` for 304 and HEAD. */
  body: Uint8Array<ArrayBuffer> | null;
}

function answer(page: CachedPage, request: PageRequest): StoredAnswer {
  const encoding = pickEncodingCached(request.acceptEncoding);
  const representation = encoding ? page[encoding] : page.identity;
  if (request.ifNoneMatch && matchesAny(request.ifNoneMatch, page.etags)) {
    return {
      status: 304,
      headers: request.https ? representation.httpsNotModified : representation.notModified,
      body: null,
    };
  }
  const headers = request.https ? representation.httpsHeaders : representation.headers;
  if (request.method === 'HEAD') return { status: page.status, headers, body: null };
  // A variant's identity is inflated from its gzip bytes: well under a millisecond (decision 135).
  return { status: page.status, headers, body: representation.body ?? inflate(page.gzip.body) };
}

/** The `Response` of a stored answer. */
function responseOf({ status, headers, body }: StoredAnswer): Response {
  return new Response(body, { status, headers });
}

/** Browsers send a handful of distinct Accept-Encoding values: parse each once. */
const acceptedEncodings = new Map<string, Encoding | null>();
function pickEncodingCached(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  let picked = acceptedEncodings.get(acceptEncoding);
  if (picked === undefined) {
    picked = pickEncoding(acceptEncoding, encodings) ?? null;
    if (acceptedEncodings.size < 256) acceptedEncodings.set(acceptEncoding, picked);
  }
  return picked ?? undefined;
}

/** A fresh mark for one render's inline scripts: unguessable, so injected code cannot carry it. */
const newMark = () => randomBytes(18).toString('base64url');

/** The path part of a key (`/pricing` of `/pricing?size=10`). */
const pathOf = (key: string) => key.split('?', 1)[0] ?? key;

/**
 * Page HTML is the same for every visitor (decision 100), so each page is rendered once and served
 * from memory: brotli and gzip bytes, identity too for a route's own page (a variant's identity
 * is inflated from gzip on the rare request that accepts neither), a strong ETag per representation, 304 on
 * `If-None-Match`, and `Cache-Control` that lets a CDN keep it. The CSP lists the hashes of the
 * inline scripts the render emitted. A page is shareable unless its route says otherwise (any
 * `Cache-Control` of its own, a cookie or a `Vary`); those paths are remembered and rendered per
 * request from the full URL.
 *
 * What is stored is bounded by the site, not by its visitors (decision 120): requests resolve to
 * a route's own path and canonical page state, so a route's page is stored once (kept for good),
 * its variants (quotes, dialogs) share an LRU byte budget, and all unknown paths one 404 page.
 */
export function createPageCache(options: PageCacheOptions): PageCache {
  const maxAgeMs = options.maxAgeMs ?? 10 * 60_000;
  const now = options.now ?? Date.now;
  /** One page per route: bounded by the route table, never evicted. */
  const routePages = new Map<string, CachedPage>();
  const variants = new LRUCache<string, CachedPage>({
    maxSize: options.maxVariantBytes ?? VARIANT_BUDGET_BYTES,
    sizeCalculation: (page) => page.bytes,
  });
  let notFound: CachedPage | undefined;
  let hits = 0;
  let misses = 0;
  const rendering = new Map<string, Promise<CachedPage | undefined>>();
  /** Route paths whose pages are not shareable: always rendered from the full request. */
  const perRequestPaths = new Set<string>();
  let generation = 0;

  function stored(address: PageAddress): CachedPage | undefined {
    if (address.kind === 'route') return routePages.get(address.key);
    if (address.kind === 'variant') return variants.get(address.key);
    return notFound;
  }

  function store(address: PageAddress, page: CachedPage): void {
    if (address.kind === 'route') routePages.set(address.key, page);
    else if (address.kind === 'variant') variants.set(address.key, page);
    else notFound = page;
  }

  const size = () => routePages.size + variants.size + (notFound ? 1 : 0);

  /** Renders the page from its key alone; undefined when the result may not be shared. */
  function renderShared(address: PageAddress): Promise<CachedPage | undefined> {
    const { key } = address;
    const running = rendering.get(key);
    if (running) return running;
    const startedIn = generation;
    const task = (async () => {
      const started = performance.now();
      const mark = newMark();
      // Concatenated, not resolved: a key is a path, never an origin of its own.
      const response = await options.render(
        new Request(`${options.origin}${key}`, { headers: { accept: 'text/html' } }),
        mark,
      );
      if (!isShareable(response)) {
        await response.body?.cancel();
        return undefined;
      }
      const own = ownInlineCode(await response.text(), mark);
      const page = await representations(
        response.status,
        own.html,
        response.headers,
        options.securityHeaders(own.hashes),
        now(),
        address.kind !== 'variant',
      );
      // A clear while this render ran means it may show what just changed: don't keep it.
      if (startedIn === generation) {
        store(address, page);
        options.onStore?.({
          key,
          status: page.status,
          ms: Math.round(performance.now() - started),
          bytes: page.bytes,
          pages: size(),
          variantBytes: variants.calculatedSize,
        });
      }
      return page;
    })().finally(() => rendering.delete(key));
    rendering.set(key, task);
    return task;
  }

  async function warm(urls: readonly string[]): Promise<void> {
    const startedIn = generation;
    for (const url of urls) {
      // A newer clear warms its own list.
      if (generation !== startedIn) return;
      const queryStart = url.indexOf('?');
      const address =
        queryStart === -1
          ? options.resolve(url, '')
          : options.resolve(url.slice(0, queryStart), url.slice(queryStart + 1));
      if (!address || perRequestPaths.has(pathOf(address.key))) continue;
      if (address.kind === 'variant' ? variants.has(address.key) : stored(address)) continue;
      await renderShared(address).catch(() => undefined);
    }
  }

  /** A document that is not shared: rendered for this request, with its own CSP. */
  async function renderPerRequest(raw: Request, request: PageRequest): Promise<Response> {
    const mark = newMark();
    const response = await options.render(raw, mark);
    if (!(response.headers.get('content-type') ?? '').startsWith('text/html')) return response;
    const own = ownInlineCode(await response.text(), mark);
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    for (const [name, value] of options.securityHeaders(own.hashes)) headers.set(name, value);
    if (request.https) headers.set(...HSTS_HEADER);
    return new Response(request.method === 'HEAD' ? null : own.html, {
      status: response.status,
      headers,
    });
  }

  function fresh(address: PageAddress, page: CachedPage): CachedPage {
    if (now() - page.renderedAt > maxAgeMs) void renderShared(address).catch(() => undefined);
    return page;
  }

  function find(request: PageRequest): StoredAnswer | undefined {
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    // The common case, a route's page by its own path, costs one map lookup.
    const direct = request.query ? undefined : routePages.get(request.path);
    if (direct) {
      hits += 1;
      return answer(fresh({ key: request.path, kind: 'route' }, direct), request);
    }
    const address = options.resolve(request.path, request.query);
    // Unknown to the site: an API route or a static file may still answer it.
    if (!address || address.kind === 'not-found') return undefined;
    const page = stored(address);
    if (!page) return undefined;
    hits += 1;
    return answer(fresh(address, page), request);
  }

  return {
    find,

    lookup(request) {
      const found = find(request);
      return found && responseOf(found);
    },

    async respond(request, raw) {
      const address = options.resolve(request.path, request.query);
      if (!address) return renderPerRequest(raw, request);
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        // Rendering an error page per OPTIONS or PROPFIND would make junk costly again.
        return new Response('Method Not Allowed', {
          status: 405,
          headers: { allow: DOCUMENT_METHODS, 'content-type': 'text/plain; charset=utf-8' },
        });
      }
      if (perRequestPaths.has(pathOf(address.key))) return renderPerRequest(raw, request);
      const kept = stored(address);
      if (kept) hits += 1;
      else misses += 1;
      const page = kept ?? (await renderShared(address));
      if (page) return responseOf(answer(page, request));
      if (perRequestPaths.size < 1_000) perRequestPaths.add(pathOf(address.key));
      return renderPerRequest(raw, request);
    },

    clear() {
      const keys = [...routePages.keys(), ...variants.keys()];
      if (notFound) keys.push(NOT_FOUND_PATH);
      generation += 1;
      routePages.clear();
      variants.clear();
      notFound = undefined;
      void warm(keys);
    },

    warm,

    get size() {
      return size();
    },

    get variantBytes() {
      return variants.calculatedSize;
    },

    stats() {
      let bytes = variants.calculatedSize + (notFound?.bytes ?? 0);
      for (const page of routePages.values()) bytes += page.bytes;
      return { hits, misses, pages: size(), bytes };
    },
  };
}
