import { featureNav, serviceNav } from '#app/components/shell/navigation.ts';
import { pages } from '#app/pages.ts';
import { siteConfig } from '#shared/site-config.ts';
import { expect, test, type Page } from './support/test.ts';
import { dismissCookieBanner, itemAt, navigateInApp, waitForHydration } from './support/shell.ts';

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const trigger = (page: Page, name: string) => mainNav(page).getByRole('button', { name });

test.beforeEach(async ({ context, baseURL }) => {
  await dismissCookieBanner(context, baseURL);
});

test.describe('desktop navigation', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test.beforeEach(async ({ page }) => {
    await page.goto('/');
    await waitForHydration(page);
  });

  test('shows every top-level entry with the right targets', async ({ page }) => {
    const nav = mainNav(page);
    for (const name of ['Features', 'Services', 'Contact']) {
      await expect(trigger(page, name)).toHaveAttribute('aria-expanded', 'false');
    }
    await expect(nav.getByRole('link', { name: 'Pricing' })).toHaveAttribute(
      'href',
      pages.pricing.path,
    );
    await expect(nav.getByRole('link', { name: 'Docs' })).toHaveAttribute(
      'href',
      siteConfig.links.docs,
    );
    await expect(nav.getByRole('link', { name: 'Blog' })).toHaveAttribute(
      'href',
      siteConfig.links.blog,
    );
    await expect(nav.getByRole('link', { name: 'Download' })).toHaveAttribute(
      'href',
      pages.download.path,
    );
    await expect(nav.getByRole('link', { name: 'Start for Free' })).toHaveAttribute(
      'href',
      '/?modal=trial',
    );
    await expect(page.getByRole('link', { name: 'Orgsmith home' }).first()).toBeVisible();
  });

  test('a mouse click opens a menu, a click outside closes it, one menu at a time', async ({
    page,
  }) => {
    await trigger(page, 'Features').click();
    await expect(trigger(page, 'Features')).toHaveAttribute('aria-expanded', 'true');
    for (const feature of featureNav) {
      await expect(mainNav(page).getByRole('link', { name: feature.title })).toBeVisible();
    }
    await trigger(page, 'Services').click();
    await expect(trigger(page, 'Features')).toHaveAttribute('aria-expanded', 'false');
    await expect(trigger(page, 'Services')).toHaveAttribute('aria-expanded', 'true');
    for (const service of serviceNav) {
      await expect(mainNav(page).getByRole('link', { name: service.title })).toBeVisible();
    }
    // A click on the page outside the menu (the left margin, below the header).
    await page.mouse.click(8, 700);
    await expect(trigger(page, 'Services')).toHaveAttribute('aria-expanded', 'false');
    await expect(
      mainNav(page).getByRole('link', { name: itemAt(serviceNav, 0).title }),
    ).toBeHidden();
  });

  test('hovering opens a menu and leaving it closes it; a click pins it open', async ({ page }) => {
    await trigger(page, 'Features').hover();
    await expect(trigger(page, 'Features')).toHaveAttribute('aria-expanded', 'true');
    await page.mouse.move(5, 500);
    await expect(trigger(page, 'Features')).toHaveAttribute('aria-expanded', 'false');
    await trigger(page, 'Features').hover();
    await trigger(page, 'Features').click();
    await page.mouse.move(5, 500);
    await page.waitForTimeout(400);
    await expect(trigger(page, 'Features')).toHaveAttribute('aria-expanded', 'true');
  });

  test('choosing a link navigates, closes the menu and keeps focus on its button', async ({
    page,
  }) => {
    await trigger(page, 'Features').click();
    const target = itemAt(featureNav, 2);
    await mainNav(page).getByRole('link', { name: target.title }).click();
    await expect(page).toHaveURL(target.path);
    await expect(trigger(page, 'Features')).toHaveAttribute('aria-expanded', 'false');
    await expect(trigger(page, 'Features')).toBeFocused();
  });

  test('a menu closes when a navigation starts elsewhere', async ({ page }) => {
    await trigger(page, 'Services').click();
    await expect(trigger(page, 'Services')).toHaveAttribute('aria-expanded', 'true');
    await navigateInApp(page, pages.pricing.path);
    await expect(page).toHaveURL(pages.pricing.path);
    await expect(trigger(page, 'Services')).toHaveAttribute('aria-expanded', 'false');
  });

  test('works by keyboard: Enter, Space, arrows, Home, End, Esc and Tab', async ({ page }) => {
    const features = trigger(page, 'Features');
    await features.focus();
    await page.keyboard.press('Enter');
    await expect(features).toHaveAttribute('aria-expanded', 'true');
    await expect(features).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(
      mainNav(page).getByRole('link', { name: itemAt(featureNav, 0).title }),
    ).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(
      mainNav(page).getByRole('link', { name: itemAt(featureNav, 1).title }),
    ).toBeFocused();
    await page.keyboard.press('End');
    await expect(
      mainNav(page).getByRole('link', { name: itemAt(featureNav, 5).title }),
    ).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(
      mainNav(page).getByRole('link', { name: itemAt(featureNav, 0).title }),
    ).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(
      mainNav(page).getByRole('link', { name: itemAt(featureNav, 5).title }),
    ).toBeFocused();
    await page.keyboard.press('Home');
    await expect(
      mainNav(page).getByRole('link', { name: itemAt(featureNav, 0).title }),
    ).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(features).toHaveAttribute('aria-expanded', 'false');
    await expect(features).toBeFocused();

    await page.keyboard.press('Space');
    await expect(features).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Space');
    await expect(features).toHaveAttribute('aria-expanded', 'false');

    // ArrowUp opens at the last link; tabbing past it closes the menu.
    await page.keyboard.press('ArrowUp');
    await expect(
      mainNav(page).getByRole('link', { name: itemAt(featureNav, 5).title }),
    ).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(mainNav(page).getByRole('link', { name: 'Pricing' })).toBeFocused();
    await expect(features).toHaveAttribute('aria-expanded', 'false');

    // Enter on a focused link follows it.
    const services = trigger(page, 'Services');
    await services.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(itemAt(serviceNav, 0).path);
    await expect(services).toHaveAttribute('aria-expanded', 'false');
    await expect(services).toBeFocused();
  });

  test('Contact opens the contact dialog or leads to support', async ({ page }) => {
    await trigger(page, 'Contact').click();
    await mainNav(page)
      .getByRole('link', { name: /Get in touch/ })
      .click();
    await expect(page).toHaveURL('/?modal=contact');
    const dialog = page.getByRole('dialog', { name: 'Get in touch' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Close dialog' }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL('/');
    await expect(trigger(page, 'Contact')).toBeFocused();

    await trigger(page, 'Contact').click();
    await mainNav(page)
      .getByRole('link', { name: /Request support/ })
      .click();
    await expect(page).toHaveURL(pages.support.path);
  });
});

test.describe('touch', () => {
  test.use({ viewport: { width: 1024, height: 768 }, hasTouch: true });

  test('a tap opens and closes a menu, a tap outside closes it', async ({ page }) => {
    await page.goto('/');
    await waitForHydration(page);
    await trigger(page, 'Features').tap();
    await expect(trigger(page, 'Features')).toHaveAttribute('aria-expanded', 'true');
    await trigger(page, 'Features').tap();
    await expect(trigger(page, 'Features')).toHaveAttribute('aria-expanded', 'false');
    await trigger(page, 'Contact').tap();
    await expect(trigger(page, 'Contact')).toHaveAttribute('aria-expanded', 'true');
    await page.touchscreen.tap(8, 700);
    await expect(trigger(page, 'Contact')).toHaveAttribute('aria-expanded', 'false');
    await trigger(page, 'Features').tap();
    await mainNav(page)
      .getByRole('link', { name: itemAt(featureNav, 0).title })
      .tap();
    await expect(page).toHaveURL(itemAt(featureNav, 0).path);
  });
});

test.describe('mobile menu at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('collapses the navigation behind a menu button', async ({ page }) => {
    await page.goto('/');
    await waitForHydration(page);
    const toggle = page.getByRole('button', { name: 'Menu' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(mainNav(page)).toBeHidden();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );

    await toggle.tap();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(mainNav(page)).toBeVisible();
    await expect(mainNav(page).getByRole('link', { name: 'Start for Free' })).toBeVisible();
    await expect(mainNav(page).getByRole('link', { name: 'Download' })).toBeVisible();
    await trigger(page, 'Features').tap();
    await mainNav(page)
      .getByRole('link', { name: itemAt(featureNav, 3).title })
      .tap();
    await expect(page).toHaveURL(itemAt(featureNav, 3).path);
    await expect(mainNav(page)).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toBeFocused();

    await toggle.tap();
    await mainNav(page).getByRole('link', { name: 'Pricing' }).tap();
    await expect(page).toHaveURL(pages.pricing.path);
    await expect(mainNav(page)).toBeHidden();

    // Esc closes an open group first, then the menu.
    await toggle.tap();
    await trigger(page, 'Services').tap();
    await expect(trigger(page, 'Services')).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Escape');
    await expect(trigger(page, 'Services')).toHaveAttribute('aria-expanded', 'false');
    await expect(mainNav(page)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(mainNav(page)).toBeHidden();
    await expect(toggle).toBeFocused();

    await toggle.tap();
    await mainNav(page).getByRole('link', { name: 'Start for Free' }).tap();
    await expect(page.getByRole('dialog', { name: 'Start your free trial' })).toBeVisible();
    await expect(mainNav(page)).toBeHidden();
  });
});

test('the header stays one row and nothing scrolls sideways from 360 to 1440 px', async ({
  page,
}) => {
  for (const width of [360, 390, 768, 899, 900, 1023, 1024, 1199, 1200, 1440]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(pages.download.path);
    const layout = await page.evaluate(() => ({
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      header: document.querySelector('header')?.getBoundingClientRect().height ?? 0,
    }));
    expect(layout.overflow, `${width} px`).toBeLessThanOrEqual(0);
    expect(layout.header, `${width} px`).toBeLessThanOrEqual(72);
    const menuButton = page.getByRole('button', { name: 'Menu' });
    if (width < 900) await expect(menuButton, `${width} px`).toBeVisible();
    else {
      await expect(menuButton, `${width} px`).toBeHidden();
      await expect(mainNav(page).getByRole('link', { name: 'Start for Free' })).toBeVisible();
    }
  }
});
