import { featureNav } from '#app/components/shell/navigation.ts';
import { pages } from '#app/pages.ts';
import { siteConfig } from '#shared/site-config.ts';
import { expect, test } from './support/test.ts';
import { dismissCookieBanner, waitForHydration } from './support/shell.ts';

test('the footer carries navigation, features, contact, legal links, address and the year', async ({
  page,
  context,
  baseURL,
}) => {
  await dismissCookieBanner(context, baseURL);
  await page.goto('/imprint');
  await waitForHydration(page);
  const footer = page.getByRole('contentinfo');

  const product = footer.getByRole('navigation', { name: 'Product' });
  await expect(product.getByRole('link', { name: 'Pricing' })).toHaveAttribute('href', '/pricing');
  await expect(product.getByRole('link', { name: 'Download' })).toHaveAttribute(
    'href',
    '/download',
  );

  const features = footer.getByRole('navigation', { name: 'Features' });
  for (const feature of featureNav) {
    await expect(features.getByRole('link', { name: feature.title })).toHaveAttribute(
      'href',
      feature.path,
    );
  }

  const contact = footer.getByRole('navigation', { name: 'Contact' });
  await expect(contact.getByRole('link', { name: siteConfig.supportEmail })).toHaveAttribute(
    'href',
    `mailto:${siteConfig.supportEmail}`,
  );
  await expect(contact.getByRole('link', { name: 'Community chat' })).toHaveAttribute(
    'href',
    siteConfig.links.communityChat,
  );

  const legal = footer.getByRole('navigation', { name: 'Legal' });
  for (const [name, page_] of [
    ['Support', pages.support],
    ['Security', pages.security],
    ['EULA', pages.eula],
    ['Imprint', pages.imprint],
    ['Privacy', pages.privacy],
  ] as const) {
    await expect(legal.getByRole('link', { name })).toHaveAttribute('href', page_.path);
  }

  const address = footer.locator('address');
  await expect(address).toContainText(siteConfig.company.name);
  await expect(address).toContainText(siteConfig.company.street);
  await expect(address).toContainText(
    `${siteConfig.company.postalCode} ${siteConfig.company.city}`,
  );
  for (const profile of siteConfig.social) {
    await expect(footer.getByRole('link', { name: profile.label })).toHaveAttribute(
      'href',
      profile.href,
    );
  }
  await expect(footer).toContainText(
    `© ${new Date().getFullYear()} ${siteConfig.company.name}. All rights reserved.`,
  );

  await contact.getByRole('link', { name: 'Send us a message' }).click();
  await expect(page).toHaveURL('/imprint?modal=contact');
  await expect(page.getByRole('dialog', { name: 'Get in touch' })).toBeVisible();
});
