import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './support/test.ts';
import { dismissCookieBanner, waitForHydration } from './support/shell.ts';

/** Screenshots of the home page for people to look at; kept as CI artifacts under test-results/. */
const directory = path.resolve('test-results/screenshots');

for (const width of [390, 1280]) {
  test(`home at ${width} px`, async ({ page, context, baseURL }) => {
    mkdirSync(directory, { recursive: true });
    await dismissCookieBanner(context, baseURL);
    await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
    await page.goto('/');
    await waitForHydration(page);
    // Nothing may scroll sideways at any width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      width,
    );
    const file = path.join(directory, `home-${width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    await page.screenshot({ path: path.join(directory, `home-${width}-viewport.png`) });
    test.info().attachments.push({ name: `home-${width}`, path: file, contentType: 'image/png' });
  });
}
