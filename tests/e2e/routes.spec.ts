import { pages } from '#app/pages.ts';
import { expect, test } from './support/test.ts';

for (const page of Object.values(pages)) {
  test(`${page.path} renders its frame`, async ({ page: browser, baseURL }) => {
    const errors: string[] = [];
    browser.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    browser.on('pageerror', (error) => errors.push(error.message));
    const response = await browser.goto(page.path);
    expect(response?.status()).toBe(200);
    const title = 'documentTitle' in page ? page.documentTitle : `${page.title} - Orgsmith`;
    await expect(browser).toHaveTitle(title);
    await expect(browser.locator('meta[name="description"]')).toHaveAttribute(
      'content',
      page.description,
    );
    await expect(browser.locator('link[rel="canonical"]')).toHaveAttribute(
      'href',
      `${baseURL}${page.path}`,
    );
    const robots = browser.locator('meta[name="robots"]');
    if ('noindex' in page && page.noindex)
      await expect(robots).toHaveAttribute('content', 'noindex, nofollow');
    else await expect(robots).toHaveCount(0);
    await expect(browser.locator('h1')).toHaveCount(1);
    expect(errors).toEqual([]);
  });
}

test('/home serves the home page and unknown paths a 404 page', async ({ page }) => {
  await page.goto('/home');
  await expect(page).toHaveTitle(pages.home.documentTitle);
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await expect(page.getByRole('link', { name: 'Download the CLI' })).toBeVisible();
});

test('/trial opens the trial dialog on home; /slack goes home', async ({ page }) => {
  await page.goto('/trial');
  await expect(page).toHaveURL(/\/\?modal=trial$/);
  await expect(page.getByRole('dialog', { name: 'Start your free trial' })).toBeVisible();
  await page.goto('/slack');
  await expect(page).toHaveURL(/\/$/);
});

test('redirects answer with their targets', async ({ request }) => {
  // /trial is a temporary entry to a dialog; /slack is gone for good.
  const redirects: Array<[string, string, number]> = [
    ['/trial', '/?modal=trial', 302],
    ['/slack', '/', 301],
  ];
  for (const [from, to, status] of redirects) {
    const response = await request.get(from, { maxRedirects: 0 });
    expect(response.status(), from).toBe(status);
    expect(response.headers()['location'], from).toBe(to);
  }
});

test('the 404 page is not indexed and offers a way on', async ({ page }) => {
  const response = await page.goto('/features/no-such-feature');
  expect(response?.status()).toBe(404);
  await expect(page).toHaveTitle('Page Not Found - Orgsmith');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeAttached();
  await page.getByRole('link', { name: 'Pricing' }).first().click();
  await expect(page).toHaveURL('/pricing');
});

test('robots.txt and sitemap.xml list what crawlers should see', async ({ request, baseURL }) => {
  const robots = await request.get('/robots.txt');
  expect(robots.status()).toBe(200);
  expect(await robots.text()).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
  const sitemap = await request.get('/sitemap.xml');
  expect(sitemap.headers()['content-type']).toContain('xml');
  const xml = await sitemap.text();
  for (const page of Object.values(pages)) {
    const listed = xml.includes(`<loc>${baseURL}${page.path}</loc>`);
    expect(listed, page.path).toBe(!('noindex' in page && page.noindex));
  }
});
