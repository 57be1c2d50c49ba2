import { grantConsent, withdrawConsent } from './analytics.ts';
import {
  analyticsCookieDeletions,
  bannerCookie,
  CONSENT_COOKIE,
  cookiesForChoice,
  readConsentState,
  type ConsentState,
} from './consent-cookies.ts';

/**
 * Browser-side consent: reads and writes the banner cookies, opens the banner again from the
 * footer's "Cookie settings" (decision 138), and tells subscribers when anything changes.
 */
const listeners = new Set<() => void>();

/** The banner was reopened from "Cookie settings"; focus goes back to `opener` when it closes. */
let settings: { opener: HTMLElement | null } | null = null;

export function subscribeConsent(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The parsed banner cookies, read once and again only after a change made here: the banner's
 * `useSyncExternalStore` snapshots ask many times per render, and each `document.cookie` read
 * is a synchronous trip to the browser's cookie store (measurable in hydration's blocking time).
 * Only this module writes these cookies, so nothing else can make the cache stale.
 */
let cachedState: ConsentState | null = null;

function notify(): void {
  cachedState = null;
  for (const listener of listeners) listener();
}

export function consentState(): ConsentState {
  cachedState ??= readConsentState(document.cookie);
  return cachedState;
}

export function isBannerDismissed(): boolean {
  return consentState().dismissed;
}

export function hasConsent(): boolean {
  return consentState().consented;
}

/** What the banner shows: nothing, the first-visit question, or the choice reopened from the footer. */
export type BannerView = 'hidden' | 'first-visit' | 'settings';

export function bannerView(): BannerView {
  if (settings) return 'settings';
  return isBannerDismissed() ? 'hidden' : 'first-visit';
}

/** Opens the banner again so the visitor can change their choice; `opener` gets focus back. */
export function openCookieSettings(opener: HTMLElement | null): void {
  settings = { opener };
  notify();
}

/** Closes the reopened banner without a new choice. */
export function closeCookieSettings(): void {
  const opener = settings?.opener;
  settings = null;
  notify();
  opener?.focus();
}

/**
 * Records the visitor's banner choice. "Accept all" grants analytics and ad storage; "Only
 * essential" after consent withdraws it: the tag is denied at once, the consent cookie records
 * `false`, and the analytics cookies are deleted (on a first answer there are none to delete).
 */
export function chooseConsent(choice: 'all' | 'essential'): void {
  const options = { secure: window.location.protocol === 'https:', now: new Date() };
  const withdrawing = choice === 'essential' && hasConsent();
  for (const name of cookiesForChoice(choice)) document.cookie = bannerCookie(name, options);
  cachedState = null;
  if (choice === 'all') grantConsent();
  if (withdrawing) {
    withdrawConsent();
    document.cookie = bannerCookie(CONSENT_COOKIE, options, 'false');
  }
  if (choice === 'essential') {
    for (const deletion of analyticsCookieDeletions(document.cookie, window.location.hostname)) {
      document.cookie = deletion;
    }
  }
  if (settings) closeCookieSettings();
  else notify();
}
