/**
 * Headers of a page whose HTML depends on one visitor's link (a checkout session, a one-time
 * token): no cache may keep or share it, and the server renders it from the full URL each time.
 * Every other page is the same for every visitor and is cached (decision 100).
 */
export function perVisitHeaders(): HeadersInit {
  return { 'Cache-Control': 'no-store' };
}
