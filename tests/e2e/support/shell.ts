import type { BrowserContext, Locator, Page } from '@playwright/test';
import { DISMISSED_COOKIE } from '#app/analytics/consent-cookies.ts';

declare global {
  interface Window {
    /** React Router's browser router, which framework mode puts on the window. */
    __reactRouterDataRouter?: { navigate(to: string): Promise<void> };
  }
}

/** Answers the cookie banner up front, for tests about something else that it would cover. */
export async function dismissCookieBanner(context: BrowserContext, baseURL: string | undefined) {
  if (!baseURL) throw new Error('baseURL is not configured');
  await context.addCookies([
    { name: DISMISSED_COOKIE, value: 'true', url: baseURL, sameSite: 'Strict' },
  ]);
}

/** Waits until React has hydrated the page, so clicks go to the client-side router. */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => 'dataLayer' in window && window.dataLayer !== undefined);
}

/** The page paths of the page views recorded in `window.dataLayer`, in order. */
export function pageViews(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    (window.dataLayer ?? [])
      .filter((entry): entry is ArrayLike<unknown> => typeof entry === 'object' && entry !== null)
      .map((entry) => Array.from(entry))
      .filter((args) => args[0] === 'event' && args[1] === 'page_view')
      .map((args) => {
        const params = args[2];
        return typeof params === 'object' && params !== null && 'page_path' in params
          ? String(params.page_path)
          : '';
      }),
  );
}

/** A client-side navigation through the app's router, as a link without a visible anchor would do. */
export async function navigateInApp(page: Page, to: string) {
  await page.evaluate((target) => {
    const router = window.__reactRouterDataRouter;
    if (!router) throw new Error('React Router is not hydrated');
    return router.navigate(target);
  }, to);
}

/** Makes every page taller than the viewport (and anchors reachable), whatever the content. */
export async function makePagesTall(page: Page) {
  // Through the CSSOM: the CSP (rightly) refuses an injected <style> element.
  await page.evaluate(() => {
    const main = document.querySelector('main');
    if (main) main.style.minHeight = '3000px';
    document.body.style.paddingBottom = '1500px';
  });
}

/** The item at `index`, failing the test when the list is shorter. */
export function itemAt<T>(list: readonly T[], index: number): T {
  const item = list[index];
  if (item === undefined) throw new Error(`no item at ${index} of ${list.length}`);
  return item;
}

/**
 * Clicks where the element is, as a person would. Playwright's own click first scrolls the element
 * "into view", which for the sticky header moves the page and would hide scroll bugs.
 */
export async function clickInPlace(page: Page, locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error('element is not visible');
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}
