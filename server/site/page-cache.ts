import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { PAGE_STATE_PARAMS } from '#shared/contracts/page-url.ts';
import { pickEncoding } from '../http/compression.ts';
import { HSTS_HEADER, type InlineHashes } from '../http/security-headers.ts';
import { inlineHashes } from './inline-hashes.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * How browsers and shared caches may keep a page: browsers revalidate every time (a 304 by
 * ETag), a CDN or the reverse proxy serves it for a minute and a stale copy for ten more while it
 * fetches the new one. A minute bounds how long a CDN shows a release catalog that just changed;
 * our own instances drop their copies at once (decision 100).
 */
export const PAGE_CACHE_CONTROL = 'public, max-age=0, s-maxage=60, stale-while-revalidate=600';

type Encoding = 'br' | 'gzip';
const encodings: readonly Encoding[] = ['br', 'gzip'];

type HeaderList = ReadonlyArray<readonly [string, string]>;

/** One stored representation of a page: its bytes and every header it is sent with. */
interface Representation {
  body: Uint8Array<ArrayBuffer>;
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
  renderedAt: number;
}

export interface PageCacheOptions {
  /** Renders a document (React Router's handler). */
  render(request: Request): Promise<Response>;
  /** The security headers of a document whose inline code has these hashes (no HSTS). */
  securityHeaders(inline: InlineHashes): HeaderList;
  /** Public origin the render requests are made on (`PUBLIC_BASE_URL`). */
  origin: string;
  /** Most pages kept (distinct paths, 404s and pricing quotes); the oldest goes first. */
  maxEntries?: number;
  /** After this long a page is rendered again (in the background; the old copy serves meanwhile). */
  maxAgeMs?: number;
  now?: () => number;
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
  /** A stored page for a GET or HEAD request, as a finished response; undefined on a miss. */
  lookup(request: PageRequest): Response | undefined;
  /**
   * Answers a document request that `lookup` missed: renders it once (concurrent requests for the
   * same page wait for that render), stores it when it is shareable, and answers from the store.
   * Pages that are not shareable are rendered from the full request every time, with their CSP.
   */
  respond(request: PageRequest, raw: Request): Promise<Response>;
  /**
   * Drops every stored page (the release catalog changed); renders already running are discarded.
   * The pages that were stored are rendered again in the background, one at a time.
   */
  clear(): void;
  /** Renders these pages (keys: path and page-state query) in the background, one at a time. */
  warm(keys: readonly string[]): Promise<void>;
  readonly size: number;
  /** Counts since start, and what is stored now (read by `/metrics`). */
  stats(): PageCacheStats;
}

export interface PageCacheStats {
  /** Requests answered from the store by `lookup`. */
  hits: number;
  /** Document requests `respond` rendered (or waited for a render of). */
  misses: number;
  pages: number;
  /** The bodies of every stored page: identity, brotli and gzip. */
  bytes: number;
}

/**
 * The key of a shareable page, and the URL it is rendered from: the path and the page-state
 * parameters in a fixed order. `undefined` for requests that are never shared: route data
 * (`.data`) and route manifests.
 */
export function pageKeyOf(path: string, query: string): string | undefined {
  if (path.endsWith('.data') || path.startsWith('/__manifest')) return undefined;
  if (!query) return path;
  const params = new URLSearchParams(query);
  const kept = new URLSearchParams();
  for (const name of PAGE_STATE_PARAMS) {
    const value = params.get(name);
    if (value !== null) kept.set(name, value);
  }
  const search = kept.toString();
  return search ? `${path}?${search}` : path;
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

async function representations(
  status: number,
  html: string,
  renderHeaders: Headers,
  security: HeaderList,
  now: number,
): Promise<CachedPage> {
  const identity = Buffer.from(html, 'utf8');
  const [br, gz] = await Promise.all([
    brotli(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
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
    const body = new Uint8Array(bytes);
    const etag = encoding ? `"${hash}-${encoding}"` : `"${hash}"`;
    const notModified: Record<string, string> = { ...common, etag };
    delete notModified['content-type'];
    const headers: Record<string, string> = {
      ...common,
      etag,
      'content-length': String(body.length),
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
    renderedAt: now,
  };
  return { ...page, etags: new Set([page.identity.etag, page.br.etag, page.gzip.etag]) };
}

/** The finished response for a stored page. */
function answer(page: CachedPage, request: PageRequest): Response {
  const encoding = pickEncodingCached(request.acceptEncoding);
  const representation = encoding ? page[encoding] : page.identity;
  if (request.ifNoneMatch && matchesAny(request.ifNoneMatch, page.etags)) {
    return new Response(null, {
      status: 304,
      headers: request.https ? representation.httpsNotModified : representation.notModified,
    });
  }
  return new Response(request.method === 'HEAD' ? null : representation.body, {
    status: page.status,
    headers: request.https ? representation.httpsHeaders : representation.headers,
  });
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

/**
 * Page HTML is the same for every visitor (decision 100), so each page is rendered once and served
 * from memory: brotli, gzip and identity bytes, a strong ETag per representation, 304 on
 * `If-None-Match`, and `Cache-Control` that lets a CDN keep it. The CSP lists the hashes of the
 * page's inline scripts. A page is shareable unless its route says otherwise (any
 * `Cache-Control` of its own, a cookie or a `Vary`); those paths are remembered and rendered per
 * request from the full URL.
 */
export function createPageCache(options: PageCacheOptions): PageCache {
  const maxEntries = options.maxEntries ?? 500;
  const maxAgeMs = options.maxAgeMs ?? 10 * 60_000;
  const now = options.now ?? Date.now;
  const pages = new Map<string, CachedPage>();
  const rendering = new Map<string, Promise<CachedPage | undefined>>();
  /** Paths whose pages are not shareable: always rendered from the full request. */
  const perRequestPaths = new Set<string>();
  let generation = 0;
  let hits = 0;
  let misses = 0;

  function store(key: string, page: CachedPage): void {
    pages.delete(key);
    if (pages.size >= maxEntries) {
      const oldest = pages.keys().next().value;
      if (oldest !== undefined) pages.delete(oldest);
    }
    pages.set(key, page);
  }

  /** Renders the page from its key alone; undefined when the result may not be shared. */
  function renderShared(key: string): Promise<CachedPage | undefined> {
    const running = rendering.get(key);
    if (running) return running;
    const startedIn = generation;
    const task = (async () => {
      const response = await options.render(
        new Request(new URL(key, options.origin), { headers: { accept: 'text/html' } }),
      );
      if (!isShareable(response)) {
        await response.body?.cancel();
        return undefined;
      }
      const html = await response.text();
      const page = await representations(
        response.status,
        html,
        response.headers,
        options.securityHeaders(inlineHashes(html)),
        now(),
      );
      // A clear while this render ran means it may show what just changed: don't keep it.
      if (startedIn === generation) store(key, page);
      return page;
    })().finally(() => rendering.delete(key));
    rendering.set(key, task);
    return task;
  }

  async function warm(keys: readonly string[]): Promise<void> {
    const startedIn = generation;
    for (const key of keys) {
      // A newer clear warms its own list.
      if (generation !== startedIn) return;
      if (pages.has(key) || perRequestPaths.has(key.split('?')[0] ?? key)) continue;
      await renderShared(key).catch(() => undefined);
    }
  }

  /** A document that is not shared: rendered for this request, with its own CSP. */
  async function renderPerRequest(raw: Request, request: PageRequest): Promise<Response> {
    const response = await options.render(raw);
    if (!(response.headers.get('content-type') ?? '').startsWith('text/html')) return response;
    const html = await response.text();
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    for (const [name, value] of options.securityHeaders(inlineHashes(html))) {
      headers.set(name, value);
    }
    if (request.https) headers.set(...HSTS_HEADER);
    return new Response(request.method === 'HEAD' ? null : html, {
      status: response.status,
      headers,
    });
  }

  return {
    lookup(request) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
      const key = request.query ? pageKeyOf(request.path, request.query) : request.path;
      if (key === undefined) return undefined;
      const page = pages.get(key);
      if (!page) return undefined;
      if (now() - page.renderedAt > maxAgeMs) void renderShared(key).catch(() => undefined);
      hits += 1;
      return answer(page, request);
    },

    async respond(request, raw) {
      misses += 1;
      const key =
        request.method === 'GET' || request.method === 'HEAD'
          ? pageKeyOf(request.path, request.query)
          : undefined;
      if (key === undefined || perRequestPaths.has(request.path)) {
        return renderPerRequest(raw, request);
      }
      const page = await renderShared(key);
      if (page) return answer(page, request);
      if (perRequestPaths.size < 1_000) perRequestPaths.add(request.path);
      return renderPerRequest(raw, request);
    },

    clear() {
      const stored = [...pages.keys()];
      generation += 1;
      pages.clear();
      void warm(stored);
    },

    warm,

    get size() {
      return pages.size;
    },

    stats() {
      let bytes = 0;
      for (const page of pages.values()) {
        bytes += page.identity.body.length + page.br.body.length + page.gzip.body.length;
      }
      return { hits, misses, pages: pages.size, bytes };
    },
  };
}
