import { PAGE_STATE_PARAMS } from '#shared/contracts/page-url.ts';

/** The five standard campaign parameters. */
export const CAMPAIGN_PARAMS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
] as const;

/**
 * The only query parameters analytics may see (decision 125): campaigns, and the page state a
 * shared page is rendered from (dialog, pricing selection), which is the same for every visitor
 * and so never a secret. Lost-key tokens, checkout session ids, addresses and anything unknown
 * stay in the browser.
 */
export const ANALYTICS_PARAMS: readonly string[] = [...CAMPAIGN_PARAMS, ...PAGE_STATE_PARAMS];

function parsed(href: string): URL | undefined {
  try {
    return new URL(href);
  } catch {
    return undefined;
  }
}

/** A URL of ours as analytics may see it: origin, path and the allowed parameters; no fragment. */
export function sanitizeAnalyticsUrl(href: string): string {
  const url = parsed(href);
  if (!url) return '';
  const kept = new URLSearchParams();
  for (const [name, value] of url.searchParams) {
    if (ANALYTICS_PARAMS.includes(name)) kept.append(name, value);
  }
  const search = kept.toString();
  return `${url.origin}${url.pathname}${search ? `?${search}` : ''}`;
}

/**
 * The referrer as analytics may see it: one of our pages like `sanitizeAnalyticsUrl`, another
 * site as its origin only (its path and query may hold its own visitor's secrets).
 */
export function sanitizeAnalyticsReferrer(referrer: string, ownOrigin: string): string {
  const url = parsed(referrer);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return '';
  return url.origin === ownOrigin ? sanitizeAnalyticsUrl(referrer) : `${url.origin}/`;
}
