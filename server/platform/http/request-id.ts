import { randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { requestId as honoRequestId } from 'hono/request-id';
import { proxyHeader } from './proxy-headers.ts';
import type { AppEnv } from './types.ts';

const acceptableRequestId = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * A proxy's `X-Request-Id` joins our log lines to its own, but only in a shape that cannot forge
 * or flood a log line; anything else gets a new id (decision 128).
 */
export function requestIdFrom(sent: string | undefined): string {
  return sent !== undefined && acceptableRequestId.test(sent) ? sent : randomUUID();
}

/** `requestIdFrom` the request's `X-Request-Id` header, when a trusted proxy sent it. */
export function acceptedRequestId(c: Context<AppEnv>): string {
  return requestIdFrom(proxyHeader(c, 'x-request-id'));
}

/** Sets `requestId` for the log; the header is read by `acceptedRequestId`, never echoed. */
export function requestId(): MiddlewareHandler<AppEnv> {
  return honoRequestId({ headerName: '', generator: acceptedRequestId });
}
