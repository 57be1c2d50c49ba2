import { featureNav } from '#app/components/shell/navigation.ts';
import { pages } from '#app/pages.ts';
import {
  clickInPlace,
  dismissCookieBanner,
  itemAt,
  makePagesTall,
  navigateInApp,
  pageViews,
  waitForHydration,
} from './support/shell.ts';
import { expect, test, type Page } from './support/test.ts';

const scrollY = (page: Page) => page.evaluate(() => window.scrollY);
const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

test.use({ viewport: { width: 1280, height: 800 } });

test.beforeEach(async ({ context, baseURL }) => {
  await dismissCookieBanner(context, baseURL);
});

test('one page view per primary route change, with canonical, title and description', async ({
  page,
  baseURL,
}) => {
  await page.goto('/');
  await waitForHydration(page);
  expect(await pageViews(page)).toEqual(['/']);
  expect(await page.evaluate(() => history.scrollRestoration)).toBe('manual');

  await mainNav(page).getByRole('link', { name: 'Pricing' }).click();
  await expect(page).toHaveURL(pages.pricing.path);
  await expect(page).toHaveTitle(`${pages.pricing.title} - Orgsmith`);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
    'href',
    `${baseURL}${pages.pricing.path}`,
  );
  await expect(page.locator('meta[name="description"]')).toHaveAttribute(
    'content',
    pages.pricing.description,
  );
  await expect(page.locator('link[rel="canonical"]')).toHaveCount(1);
  await expect.poll(() => pageViews(page)).toEqual(['/', '/pricing']);

  // An anchor on the same page is not a new page.
  await navigateInApp(page, `${pages.pricing.path}#footer-features`);
  await expect(page).toHaveURL(`${pages.pricing.path}#footer-features`);

  await mainNav(page).getByRole('button', { name: 'Features' }).click();
  await mainNav(page)
    .getByRole('link', { name: itemAt(featureNav, 0).title })
    .click();
  await expect(page).toHaveURL(itemAt(featureNav, 0).path);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
    'href',
    `${baseURL}${itemAt(featureNav, 0).path}`,
  );
  await page.goBack();
  await expect(page).toHaveURL(`${pages.pricing.path}#footer-features`);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
    'href',
    `${baseURL}${pages.pricing.path}`,
  );
  await expect
    .poll(() => pageViews(page))
    .toEqual(['/', '/pricing', itemAt(featureNav, 0).path, '/pricing']);
  const views = await page.evaluate(() =>
    (window.dataLayer ?? [])
      .filter((entry): entry is ArrayLike<unknown> => typeof entry === 'object' && entry !== null)
      .map((entry) => Array.from(entry))
      .filter((args) => args[1] === 'page_view')
      .map((args) => args[2]),
  );
  expect(views[1]).toMatchObject({
    page_path: '/pricing',
    page_title: `${pages.pricing.title} - Orgsmith`,
  });
});

test('a new page starts at the top; back and forward restore the saved position', async ({
  page,
}) => {
  await page.goto(pages.pricing.path);
  await waitForHydration(page);
  await makePagesTall(page);
  await page.evaluate(() => window.scrollTo(0, 1500));
  await page.waitForFunction(() => window.scrollY === 1500);

  await clickInPlace(page, mainNav(page).getByRole('link', { name: 'Download' }));
  await expect(page).toHaveURL(pages.download.path);
  await expect.poll(() => scrollY(page)).toBe(0);
  await page.evaluate(() => window.scrollTo(0, 700));
  await page.waitForFunction(() => window.scrollY === 700);

  await page.goBack();
  await expect(page).toHaveURL(pages.pricing.path);
  await expect.poll(() => scrollY(page)).toBe(1500);
  await page.goForward();
  await expect(page).toHaveURL(pages.download.path);
  await expect.poll(() => scrollY(page)).toBe(700);

  // Going to a page already in the history by a link starts at its top again.
  await clickInPlace(page, mainNav(page).getByRole('link', { name: 'Pricing' }));
  await expect(page).toHaveURL(pages.pricing.path);
  await expect.poll(() => scrollY(page)).toBe(0);
});

test('a reload keeps the position', async ({ page }) => {
  // A phone-sized window: the footer alone makes every page tall enough to scroll.
  await page.setViewportSize({ width: 390, height: 600 });
  await page.goto(pages.privacy.path);
  await waitForHydration(page);
  await page.evaluate(() => window.scrollTo(0, 250));
  await page.waitForFunction(() => window.scrollY === 250);
  await page.reload();
  await waitForHydration(page);
  await expect.poll(() => scrollY(page)).toBe(250);
});

test('an #anchor scrolls to its target, below the sticky header', async ({ page }) => {
  await page.goto(pages.support.path);
  await waitForHydration(page);
  await makePagesTall(page);
  await navigateInApp(page, `${pages.eula.path}#footer-services`);
  await expect(page).toHaveURL(`${pages.eula.path}#footer-services`);
  await expect.poll(() => scrollY(page)).toBeGreaterThan(0);
  const top = await page.evaluate(
    () => document.getElementById('footer-services')?.getBoundingClientRect().top ?? -1,
  );
  const headerHeight = await page.evaluate(
    () => document.querySelector('header')?.getBoundingClientRect().height ?? 0,
  );
  expect(top).toBeGreaterThanOrEqual(headerHeight);
  expect(top).toBeLessThan(headerHeight + 40);
});

test('the scroll-up button appears after scrolling and returns to the top', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(pages.download.path);
  await waitForHydration(page);
  await makePagesTall(page);
  const button = page.getByRole('button', { name: 'Scroll to top' });
  await expect(button).toBeHidden();
  await page.evaluate(() => window.scrollTo(0, 1600));
  await expect(button).toBeVisible();
  await button.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => scrollY(page)).toBe(0);
  await expect(button).toBeHidden();
  await expect(page.locator('#main')).toBeFocused();
});

test('the scroll-up button scrolls smoothly when motion is welcome', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await page.goto(pages.download.path);
  await waitForHydration(page);
  await makePagesTall(page);
  await page.evaluate(() => window.scrollTo(0, 2000));
  await page.getByRole('button', { name: 'Scroll to top' }).click();
  await expect.poll(() => scrollY(page)).toBe(0);
});
