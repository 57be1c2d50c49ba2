import { grantConsent } from './analytics.ts';
import { bannerCookie, cookiesForChoice, readConsentState } from './consent-cookies.ts';

/** Browser-side consent: reads and writes the banner cookies and tells subscribers when they change. */
const listeners = new Set<() => void>();

export function subscribeConsent(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function isBannerDismissed(): boolean {
  return readConsentState(document.cookie).dismissed;
}

export function hasConsent(): boolean {
  return readConsentState(document.cookie).consented;
}

/** Records the visitor's banner choice; "Accept all" also grants analytics and ad storage. */
export function chooseConsent(choice: 'all' | 'essential'): void {
  const options = { secure: window.location.protocol === 'https:', now: new Date() };
  for (const name of cookiesForChoice(choice)) document.cookie = bannerCookie(name, options);
  if (choice === 'all') grantConsent();
  for (const listener of listeners) listener();
}
