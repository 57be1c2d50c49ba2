import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { initAnalytics, trackPageView } from './analytics.ts';
import { consentState } from './consent.ts';

/**
 * Starts analytics once in the browser and records exactly one page view per primary route, i.e.
 * per pathname: the first load counts, dialogs (`?modal=`) and `#anchor` jumps do not.
 */
export function useRouteAnalytics(measurementId: string | null): void {
  const { pathname } = useLocation();
  const tracked = useRef<string | null>(null);

  useEffect(() => {
    const { consented, withdrawn } = consentState();
    initAnalytics({ measurementId, consentGranted: consented, consentWithdrawn: withdrawn });
  }, [measurementId]);

  useEffect(() => {
    if (tracked.current === pathname) return;
    tracked.current = pathname;
    trackPageView(pathname, document.title);
  }, [pathname]);
}
