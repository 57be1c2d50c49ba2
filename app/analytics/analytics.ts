import { sanitizeAnalyticsReferrer, sanitizeAnalyticsUrl } from './sanitize-analytics-url.ts';

/**
 * Analytics with consent (docs/product-rules.md#service-calls, #constants): everything is pushed to `window.dataLayer` in gtag's
 * format; the Google tag script is loaded only when a measurement id is configured. Consent mode
 * starts denied; `grantConsent()` grants ad and analytics storage. Page views are sent manually.
 * Every command carries the page's URL and referrer with only the allowed parameters
 * (decision 125): gtag would otherwise read `document.location` and `document.referrer` itself.
 */
declare global {
  interface Window {
    dataLayer?: unknown[];
  }
}

export const DOWNLOAD_EVENT = { category: 'download', action: 'downloadCli', value: 250 } as const;
export const CONTACT_EVENT = {
  category: 'contact',
  action: 'submitContactForm',
  value: 100,
} as const;

/** Consent was withdrawn, on this page or before: the tag gets no event and no config (decision 138). */
let withdrawn = false;

function gtag(...args: unknown[]): void {
  if (typeof window === 'undefined') return;
  if (withdrawn && (args[0] === 'event' || args[0] === 'config')) return;
  window.dataLayer ??= [];
  // gtag.js reads the arguments object itself, as its official snippet pushes it.
  // eslint-disable-next-line prefer-rest-params
  window.dataLayer.push(arguments);
  void args;
}

let initialised = false;
/** The configured tag, loaded once: at start-up, or when consent is given again after a withdrawal. */
let tag: { measurementId: string; loaded: boolean } | null = null;

/** The page as analytics may see it: its URL and referrer without tokens, ids or fragments. */
function pageContext(): { page_location: string; page_referrer: string } {
  if (typeof window === 'undefined') return { page_location: '', page_referrer: '' };
  return {
    page_location: sanitizeAnalyticsUrl(window.location.href),
    page_referrer: sanitizeAnalyticsReferrer(document.referrer, window.location.origin),
  };
}

export interface AnalyticsSetup {
  measurementId: string | null;
  /** True when the visitor accepted all cookies on an earlier visit. */
  consentGranted: boolean;
  /** True when the visitor withdrew their consent: no tag is loaded and no event is sent. */
  consentWithdrawn?: boolean;
}

export function initAnalytics({
  measurementId,
  consentGranted,
  consentWithdrawn = false,
}: AnalyticsSetup): void {
  if (initialised || typeof window === 'undefined') return;
  initialised = true;
  withdrawn = consentWithdrawn;
  gtag('consent', 'default', {
    ad_storage: 'denied',
    analytics_storage: 'denied',
    ad_user_data: 'denied',
    ad_personalization: 'denied',
  });
  if (consentGranted) grantConsent();
  // Set before the tag reads anything: what it sends on its own gets these, not the real URL.
  gtag('set', pageContext());
  gtag('js', new Date());
  if (measurementId) tag = { measurementId, loaded: false };
  loadTag();
}

function loadTag(): void {
  if (!tag || tag.loaded || withdrawn) return;
  tag.loaded = true;
  gtag('config', tag.measurementId, { send_page_view: false, ...pageContext() });
  const script = document.createElement('script');
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(tag.measurementId)}`;
  document.head.appendChild(script);
}

export function grantConsent(): void {
  withdrawn = false;
  gtag('consent', 'update', { ad_storage: 'granted', analytics_storage: 'granted' });
  loadTag();
}

/**
 * Consent withdrawn: the tag is told to deny every storage at once, and this page sends it no
 * further event, so nothing more reaches the analytics endpoints. The cookies are the caller's.
 */
export function withdrawConsent(): void {
  gtag('consent', 'update', {
    ad_storage: 'denied',
    analytics_storage: 'denied',
    ad_user_data: 'denied',
    ad_personalization: 'denied',
  });
  withdrawn = true;
}

export function trackPageView(path: string, title: string): void {
  const page = pageContext();
  gtag('set', page);
  gtag('event', 'page_view', { page_path: path, page_title: title, ...page });
}

export interface DownloadEventInput {
  operatingSystem: string;
  architecture: string;
  format: string;
}

/** A download click: category download, action downloadCli, label `OS | architecture | format`, value 250. */
export function trackDownload({ operatingSystem, architecture, format }: DownloadEventInput): void {
  gtag('event', DOWNLOAD_EVENT.action, {
    event_category: DOWNLOAD_EVENT.category,
    event_label: `${operatingSystem} | ${architecture} | ${format}`,
    value: DOWNLOAD_EVENT.value,
    ...pageContext(),
  });
}

/** A contact-form submission, weighted 100. */
export function trackContact(): void {
  gtag('event', CONTACT_EVENT.action, {
    event_category: CONTACT_EVENT.category,
    value: CONTACT_EVENT.value,
    ...pageContext(),
  });
}
