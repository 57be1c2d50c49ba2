import { pages } from '#app/pages.ts';
import { expect, test, type Page } from './support/test.ts';
import { waitForHydration } from './support/shell.ts';

/**
 * On a phone nothing scrolls sideways: no page and no dialog is wider than the viewport. Wide
 * tables and code scroll inside their own container instead.
 */
const widths = [320, 390];
const dialogs = ['contact', 'portal-access', 'trial', 'quote'];

/** How far the document reaches past the right edge of the viewport, in CSS pixels. */
function overflow(page: Page): Promise<{ excess: number; culprits: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const excess = Math.max(0, document.documentElement.scrollWidth - width);
    const culprits: string[] = [];
    if (excess > 0) {
      // Elements past the edge that are not inside a container that scrolls or clips them.
      const clipped = (element: Element) => {
        for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
          if (getComputedStyle(up).overflowX !== 'visible') return true;
        }
        return false;
      };
      for (const element of document.querySelectorAll('body *')) {
        const box = element.getBoundingClientRect();
        if (box.right > width + 1 && box.width > 0 && !clipped(element)) {
          culprits.push(
            `${element.tagName.toLowerCase()}.${String(element.className)} → ${Math.round(box.right)}`,
          );
        }
        if (culprits.length > 7) break;
      }
    }
    return { excess, culprits };
  });
}

for (const width of widths) {
  test(`no page scrolls sideways at ${width} px`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 740 });
    const wider: Record<string, Awaited<ReturnType<typeof overflow>>> = {};
    for (const path of [...Object.values(pages).map((p) => p.path), '/no-such-page']) {
      await page.goto(path);
      await waitForHydration(page);
      const found = await overflow(page);
      if (found.excess > 0) wider[path] = found;
    }
    expect(wider, `pages wider than ${width} px`).toEqual({});
  });

  test(`no dialog is wider than the screen at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 740 });
    for (const modal of dialogs) {
      await page.goto(`/pricing?modal=${modal}`);
      await waitForHydration(page);
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      const box = await dialog.boundingBox();
      expect(box, modal).not.toBeNull();
      expect((box?.x ?? 0) + (box?.width ?? 0), `${modal} at ${width} px`).toBeLessThanOrEqual(
        width,
      );
      expect(box?.x ?? -1, modal).toBeGreaterThanOrEqual(0);
      expect(await overflow(page), `${modal} at ${width} px`).toEqual({ excess: 0, culprits: [] });
    }
  });
}
