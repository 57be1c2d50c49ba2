import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BlockList } from 'node:net';
import type { Logger } from '#server/platform/logger.ts';
import { requestIdFrom } from '#server/platform/http/request-id.ts';
import { announcesBody } from '#server/platform/http/body-limit.ts';
import { fromTrustedProxy } from '#server/platform/http/proxy-headers.ts';
import { logRequest } from '#server/platform/http/request-log.ts';
import { isHttps } from '#server/platform/http/security-headers.ts';
import type { PageCache } from './page-cache.ts';

/**
 * Request targets the fast path takes: an origin-form path and query of plain characters, no
 * percent-encoding, no empty or dot segments. For these the raw target is exactly the path and
 * query Hono would see (it parses the target as a URL, which decodes and normalizes); anything
 * else goes the long way, where the same store answers it.
 */
const plainTarget = /^\/(?:[\w~-][\w~.-]*(?:\/[\w~-][\w~.-]*)*\/?)?(?:\?[\w.~=&+,-]*)?$/;

/** Node joins repeated headers into one string, except a few it keeps as a list. */
const single = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value.join(', ') : value;

/** The one metric a stored page counts (the service's metrics implement it). */
export interface ServedPageCounter {
  requestServed(method: string, route: string, status: number, seconds: number): void;
}

export interface StoredPageListenerOptions {
  cache: PageCache;
  logger: Logger;
  /** Counts the request as the metrics middleware would; undefined when metrics are off. */
  metrics?: ServedPageCounter | undefined;
  /** `TRUST_PROXY`: whose `X-Forwarded-Proto` and `X-Request-Id` count (decision 160). */
  trustedProxies: BlockList;
}

/**
 * Answers a request for a stored page straight from Node's request event, before a Hono
 * `Request` and context are made: the same bytes and headers, request line and metrics as
 * through the middleware chain (where `cachedPages` is the first handler after logging and
 * body limits), at about two thirds of the CPU (decision 150). Returns false, having touched
 * nothing, for anything else: other methods, a request with a body, an unusual target, a page
 * not stored.
 */
export function storedPageListener(
  options: StoredPageListenerOptions,
): (incoming: IncomingMessage, outgoing: ServerResponse) => boolean {
  const { cache, logger, metrics, trustedProxies } = options;
  return (incoming, outgoing) => {
    const started = performance.now();
    const method = incoming.method ?? '';
    if (method !== 'GET' && method !== 'HEAD') return false;
    const headers = incoming.headers;
    // A body (even on GET) is the body limits' business: they refuse it unread.
    const contentLength = headers['content-length'];
    const transferEncoding = headers['transfer-encoding'];
    if (announcesBody({ contentLength, transferEncoding })) return false;
    const target = incoming.url ?? '';
    if (!plainTarget.test(target)) return false;
    const peer = incoming.socket.remoteAddress ?? '';
    const proxyHeader = (name: string) =>
      fromTrustedProxy(peer, trustedProxies, single(headers[name]));
    const queryStart = target.indexOf('?');
    const path = queryStart === -1 ? target : target.slice(0, queryStart);
    const found = cache.find({
      method,
      path,
      query: queryStart === -1 ? '' : target.slice(queryStart + 1),
      acceptEncoding: headers['accept-encoding'],
      ifNoneMatch: headers['if-none-match'],
      // This server speaks plain HTTP; a proxy in front says what the visitor used.
      https: isHttps('http:', proxyHeader('x-forwarded-proto')),
    });
    if (!found) return false;

    outgoing.writeHead(found.status, found.headers);
    if (found.body) outgoing.end(found.body);
    else outgoing.end();
    const requestId = requestIdFrom(proxyHeader('x-request-id'));
    logRequest(logger.child({ requestId }), method, path, found.status, started);
    metrics?.requestServed(method, 'page', found.status, (performance.now() - started) / 1000);
    return true;
  };
}
