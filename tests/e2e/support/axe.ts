import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { readConsentState } from '#app/analytics/consent-cookies.ts';

/**
 * Waits until every CSS animation and transition on the page has finished. Axe computes colour
 * contrast from what is painted, so a banner or dialog caught mid-fade reports contrast failures
 * that no visitor sees once the motion ends. Infinite animations (spinners) are skipped.
 */
export async function settleAnimations(page: Page) {
  await page.evaluate(async () => {
    const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    // Something mounted in the meantime (the lazily loaded cookie banner) may start a new animation,
    // so look again after every wait until two frames pass with nothing in motion.
    for (let round = 0; round < 20; round += 1) {
      await nextFrame();
      await nextFrame();
      const moving = document
        .getAnimations()
        .filter(
          (animation) =>
            animation.playState === 'running' &&
            animation.effect?.getComputedTiming().endTime !== Infinity,
        );
      if (moving.length === 0) return;
      await Promise.all(moving.map((animation) => animation.finished.catch(() => undefined)));
    }
  });
}

/**
 * Waits until the document has loaded and its DOM has not changed for `quietMs` (at most `maxMs`).
 * A page keeps rendering after its first paint — hydration, the download page's platform refined
 * from client hints, a lazily loaded banner — and axe reads the DOM over several frames, so a
 * re-render in the middle of its run reports nodes that are gone a moment later.
 */
export async function waitForStillDom(page: Page, quietMs = 300, maxMs = 10_000) {
  await page.waitForLoadState('load');
  await page.evaluate(
    ({ quietMs, maxMs }) =>
      new Promise<void>((resolve) => {
        let timer = setTimeout(done, quietMs);
        const deadline = setTimeout(done, maxMs);
        const observer = new MutationObserver(() => {
          clearTimeout(timer);
          timer = setTimeout(done, quietMs);
        });
        observer.observe(document, {
          subtree: true,
          childList: true,
          attributes: true,
          characterData: true,
        });
        function done() {
          observer.disconnect();
          clearTimeout(timer);
          clearTimeout(deadline);
          resolve();
        }
      }),
    { quietMs, maxMs },
  );
}

/**
 * On a page of the site (not the server-rendered local payment pages) whose visitor has not answered
 * the cookie banner yet, waits for the lazily loaded banner to appear, so that it cannot mount and
 * fade in while axe is reading the page.
 */
async function waitForCookieBanner(page: Page) {
  const { isSitePage, cookies } = await page.evaluate(() => ({
    // The operator console (decision 226) is rendered by React Router too, but has no banner.
    isSitePage: '__reactRouterContext' in window && !location.pathname.startsWith('/console'),
    cookies: document.cookie,
  }));
  if (isSitePage && !readConsentState(cookies).dismissed) {
    await expect(page.getByRole('region', { name: 'Cookies on this site' })).toBeVisible();
  }
}

/**
 * Runs every axe rule (WCAG 2.x A/AA and best practices) once the page is still, optionally only
 * inside `include`, and fails with one line per finding: rule, impact, help and the nodes.
 */
export async function expectNoAxeViolations(
  page: Page,
  label: string,
  options: { include?: string } = {},
) {
  await waitForCookieBanner(page);
  await waitForStillDom(page);
  await settleAnimations(page);
  // Only violations are read: axe then stops collecting every passing node (a quarter of its time).
  // Legacy mode runs `axe.run` in the page itself. The default mode runs axe per frame and then
  // opens a new blank page (another renderer) to merge the frames' results: about 1 s per call on
  // this machine for pages that have no frames to merge (none of ours embeds a cross-origin frame).
  const builder = new AxeBuilder({ page })
    .options({ resultTypes: ['violations'] })
    .setLegacyMode(true);
  if (options.include) builder.include(options.include);
  const results = await builder.analyze();
  const findings = results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help}\n` +
      violation.nodes.map((node) => `    ${node.target.join(' ')}`).join('\n'),
  );
  expect(findings, `${label}\n${findings.join('\n')}`).toEqual([]);
}
