import { expect, test, type Page } from './support/test.ts';

function comparison(page: Page) {
  return page.getByRole('region', { name: 'Starter, Pro and Enterprise compared' });
}

/** How far the table scrolls sideways inside its wrapper, and the wrapper's painted background. */
async function scrollState(page: Page) {
  return comparison(page).evaluate((scroller) => ({
    overflow: scroller.scrollWidth - scroller.clientWidth,
    background: getComputedStyle(scroller).backgroundImage,
    pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  }));
}

for (const width of [320, 390]) {
  test(`on a ${width} px phone the comparison says it scrolls and shades its edges`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 844 });
    await page.goto('/pricing');
    const hint = page.getByTestId('compare-scroll-hint');
    await expect(hint).toBeVisible();
    await expect(hint).toHaveText('Swipe sideways to see all three plans');
    const state = await scrollState(page);
    expect(state.overflow).toBeGreaterThan(0);
    expect(state.pageOverflow).toBe(0);
    // Two white covers that scroll with the table and two shades fixed to the edges.
    expect(state.background.match(/linear-gradient/g)).toHaveLength(2);
    expect(state.background.match(/radial-gradient/g)).toHaveLength(2);

    // The last column can be scrolled fully into view.
    await comparison(page).evaluate((scroller) => {
      scroller.scrollLeft = scroller.scrollWidth;
    });
    await expect(
      page.getByRole('table').getByRole('columnheader', { name: 'Enterprise' }),
    ).toBeInViewport({ ratio: 1 });
    await comparison(page).screenshot({ path: `test-results/compare-table-${width}.png` });
  });
}

test('on a wide screen the whole table shows and no cue is needed', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 800 });
  await page.goto('/pricing');
  await expect(page.getByTestId('compare-scroll-hint')).toBeHidden();
  expect((await scrollState(page)).overflow).toBe(0);
});
