import { lazy, Suspense, useSyncExternalStore } from 'react';
import { isBannerDismissed, subscribeConsent } from '#app/analytics/consent.ts';

// Returning visitors, who answered it once, never download the banner.
const CookieBanner = lazy(() =>
  import('./CookieBanner.tsx').then((module) => ({ default: module.CookieBanner })),
);

// The server never knows the visitor's choice, so it renders no banner; the browser decides.
const dismissedOnServer = () => true;

/** The cookie banner (docs/product-rules.md#behaviour): shown after hydration until the visitor chooses, then never again. */
export function LazyCookieBanner() {
  const dismissed = useSyncExternalStore(subscribeConsent, isBannerDismissed, dismissedOnServer);
  if (dismissed) return null;
  return (
    <Suspense fallback={null}>
      <CookieBanner />
    </Suspense>
  );
}
