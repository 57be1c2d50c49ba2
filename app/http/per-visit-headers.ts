import type { HeadersArgs } from 'react-router';

/**
 * Headers of a page whose HTML depends on one visitor's link (a checkout session, a one-time
 * token): no cache may keep or share it, and the server renders it from the full URL each time.
 * Every other page is the same for every visitor and is cached (decision 100). A loader that
 * refused a lookup for now (429) adds its `Retry-After`.
 */
export function perVisitHeaders(args?: Pick<HeadersArgs, 'loaderHeaders'>): HeadersInit {
  const retryAfter = args?.loaderHeaders.get('Retry-After');
  return retryAfter
    ? { 'Cache-Control': 'no-store', 'Retry-After': retryAfter }
    : { 'Cache-Control': 'no-store' };
}
