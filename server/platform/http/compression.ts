import type { MiddlewareHandler } from 'hono';
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from 'hono/compress';
import type { AppEnv } from './types.ts';

export type ContentEncoding = 'gzip' | 'deflate';

/** Below this many bytes compression saves less than it costs. */
export const COMPRESSION_THRESHOLD = 1024;

/** Preferred first when the client accepts both equally. */
const defaultSupported: readonly ContentEncoding[] = ['gzip', 'deflate'];

/** The encoding to answer with for an `Accept-Encoding` header, or none (identity). */
export function negotiateEncoding(acceptEncoding: string | undefined): ContentEncoding | undefined {
  return pickEncoding(acceptEncoding, defaultSupported);
}

/** The best of the `supported` encodings (in order of preference) the client accepts, if any. */
export function pickEncoding<E extends string>(
  acceptEncoding: string | undefined,
  supported: readonly E[],
): E | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [token = '', ...params] = part.split(';');
    const name = token.trim().toLowerCase();
    if (!name) continue;
    const q = params
      .map((param) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param)?.[1])
      .find((value) => value !== undefined);
    weights.set(name, q === undefined ? 1 : Number(q));
  }
  let best: E | undefined;
  let bestWeight = 0;
  for (const encoding of supported) {
    const weight = weights.get(encoding) ?? weights.get('*') ?? 0;
    if (weight > bestWeight) {
      best = encoding;
      bestWeight = weight;
    }
  }
  return best;
}

export interface CompressionOptions {
  /** Below this many bytes (by `Content-Length`) a response is sent as it is. */
  threshold?: number;
  /**
   * Bodies of unknown length: `'documents'` compresses pages, stylesheets, scripts and feeds but
   * not JSON or plain text (a Hono route's API answers, which are small); `'all'` compresses every
   * compressible type (the site handler's documents, route data and route manifests).
   */
  unknownLength?: 'documents' | 'all';
}

/**
 * Whether a finished response is worth compressing, from its status and headers alone: reading
 * its body would take it off @hono/node-server's fast path (decision 081).
 */
export function worthCompressing(
  status: number,
  headers: Headers,
  { threshold = COMPRESSION_THRESHOLD, unknownLength = 'documents' }: CompressionOptions = {},
): boolean {
  if (status < 200 || status === 204 || status === 206 || status === 304) return false;
  if (headers.has('Content-Encoding')) return false;
  if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(headers.get('Cache-Control') ?? '')) return false;
  const type = headers.get('Content-Type') ?? '';
  if (!COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type)) return false;
  const length = headers.get('Content-Length');
  if (length !== null) return Number(length) >= threshold;
  // Unknown length: pages, stylesheets and feeds are large; an API answer in JSON or plain text
  // is small, and one that is not says so in its Content-Length.
  return unknownLength === 'all' || !/^\s*(?:application\/json|text\/plain)\b/i.test(type);
}

/**
 * Compresses responses for clients that accept gzip or deflate. A request without an acceptable
 * `Accept-Encoding` (health checks, the CLI) and a response that is small, already encoded or
 * not compressible are left untouched, so they keep the server's fast path.
 */
export function compression(options: CompressionOptions = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const encoding =
      c.req.method === 'HEAD' ? undefined : negotiateEncoding(c.req.header('Accept-Encoding'));
    if (!encoding) {
      await next();
      return;
    }
    await next();
    if (!worthCompressing(c.res.status, c.res.headers, options)) return;
    const body = c.res.body;
    if (!body) return;
    c.res = new Response(body.pipeThrough(new CompressionStream(encoding)), c.res);
    // Hono copies the previous response's headers onto the new one: correct them afterwards.
    const sent = c.res.headers;
    sent.delete('Content-Length');
    sent.set('Content-Encoding', encoding);
    const vary = sent.get('Vary');
    if (!vary) sent.set('Vary', 'Accept-Encoding');
    else if (vary !== '*' && !/(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(vary)) {
      sent.set('Vary', `${vary}, Accept-Encoding`);
    }
    const etag = sent.get('ETag');
    if (etag && !etag.startsWith('W/')) sent.set('ETag', `W/${etag}`);
  };
}
