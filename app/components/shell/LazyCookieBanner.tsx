import { lazy, Suspense, useSyncExternalStore } from 'react';
import { bannerView, subscribeConsent, type BannerView } from '#app/analytics/consent.ts';

// Returning visitors, who answered it once, download the banner only if they open the settings.
const CookieBanner = lazy(() =>
  import('./CookieBanner.tsx').then((module) => ({ default: module.CookieBanner })),
);

// The server never knows the visitor's choice, so it renders no banner; the browser decides.
const hiddenOnServer = (): BannerView => 'hidden';

/** The cookie banner (docs/product-rules.md#behaviour): shown after hydration until the visitor chooses, and again from "Cookie settings". */
export function LazyCookieBanner() {
  const view = useSyncExternalStore(subscribeConsent, bannerView, hiddenOnServer);
  if (view === 'hidden') return null;
  return (
    <Suspense fallback={null}>
      <CookieBanner settings={view === 'settings'} />
    </Suspense>
  );
}
