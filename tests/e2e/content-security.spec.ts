import { pages } from '#app/pages.ts';
import { siteConfig } from '#shared/site-config.ts';
import { expect, test } from './support/test.ts';

test('/security answers a security review, one section per question', async ({ page }) => {
  await page.goto(pages.security.path);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Security');
  const main = page.getByRole('main');
  for (const heading of [
    'Licence keys and access tokens',
    'What a licence certificate proves',
    'Signed releases and how to check them',
    'Software bill of materials',
    'What we keep, and where',
    'How long we keep it',
    'Backups',
    'Reporting a vulnerability',
  ]) {
    await expect(main.getByRole('heading', { level: 2, name: heading })).toBeVisible();
  }
  await expect(main.getByRole('link', { name: siteConfig.securityEmail })).toHaveAttribute(
    'href',
    `mailto:${siteConfig.securityEmail}`,
  );
  await expect(main.getByText('/account/v1/.well-known/jwks.json')).toBeVisible();

  // Its contents link to each section, and the links it gives lead somewhere real.
  await main
    .getByRole('navigation', { name: 'On this page' })
    .getByRole('link', { name: 'Backups' })
    .click();
  await expect(page).toHaveURL(/#backups$/);
  for (const href of [
    '/download#verify-your-download',
    '/privacy#retention',
    '/privacy#recipients',
  ]) {
    const [path, anchor] = href.split('#');
    await expect(main.locator(`a[href="${href}"]`)).toHaveCount(1);
    const target = await page.request.get(path ?? '/');
    expect(target.status(), href).toBe(200);
    expect(await target.text(), href).toContain(`id="${anchor}"`);
  }
  const securityTxt = await page.request.get('/.well-known/security.txt');
  expect(await securityTxt.text()).toContain(`Contact: mailto:${siteConfig.securityEmail}`);
});

test("the footer and the download page's verify section link to /security", async ({ page }) => {
  await page.goto(pages.download.path);
  await expect(
    page
      .getByRole('region', { name: 'Verify your download' })
      .getByRole('link', { name: 'Security at Orgsmith' }),
  ).toHaveAttribute('href', '/security');
  await expect(
    page
      .getByRole('contentinfo')
      .getByRole('navigation', { name: 'Legal' })
      .getByRole('link', { name: 'Security' }),
  ).toHaveAttribute('href', '/security');
  const sitemap = await (await page.request.get('/sitemap.xml')).text();
  expect(sitemap).toMatch(/<loc>http:\/\/localhost:\d+\/security<\/loc>/);
});
