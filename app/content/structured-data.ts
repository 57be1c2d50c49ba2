import { siteConfig } from '#shared/site-config.ts';
import type { Release } from '#shared/downloads/catalog.ts';

/** Marketing rating figures (docs/product-rules.md#pages): hard-coded, 5 from 264 ratings. */
export const rating = { value: 5, count: 264 } as const;

/**
 * schema.org data of the home page: the CLI as a software application (and product) with its
 * offer, latest version (from the release catalog; left out while none is published) and rating,
 * and the company as an organisation.
 */
export interface StructuredDataOffer {
  price: number;
  currency: string;
}

export function homeStructuredData(
  baseUrl: string,
  latestRelease: Pick<Release, 'version' | 'releaseDate'> | null,
  offer: StructuredDataOffer,
) {
  const { company, links } = siteConfig;
  const organizationId = `${baseUrl}/#organization`;
  const organization = {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    '@id': organizationId,
    name: siteConfig.productName,
    legalName: company.name,
    url: `${baseUrl}/`,
    logo: `${baseUrl}/favicon.svg`,
    email: siteConfig.supportEmail,
    telephone: company.phone,
    vatID: company.vatId,
    address: {
      '@type': 'PostalAddress',
      streetAddress: company.street,
      postalCode: company.postalCode,
      addressLocality: company.city,
      addressCountry: 'DE',
    },
    sameAs: [links.github, links.linkedIn, links.youTube],
  };
  const application = {
    '@context': 'https://schema.org',
    '@type': ['SoftwareApplication', 'Product'],
    name: siteConfig.productName,
    description: `${siteConfig.productName} is a command-line DevOps tool that moves Salesforce metadata between orgs and Git with inbound, outbound and atomic merge flows.`,
    url: `${baseUrl}/`,
    applicationCategory: 'DeveloperApplication',
    operatingSystem: 'Windows, macOS, Linux',
    ...(latestRelease
      ? { softwareVersion: latestRelease.version, datePublished: latestRelease.releaseDate }
      : {}),
    downloadUrl: `${baseUrl}/download`,
    brand: { '@type': 'Brand', name: siteConfig.productName },
    publisher: { '@id': organizationId },
    offers: {
      '@type': 'Offer',
      price: String(offer.price),
      priceCurrency: offer.currency,
      url: `${baseUrl}/pricing`,
      availability: 'https://schema.org/InStock',
      seller: { '@id': organizationId },
    },
    aggregateRating: {
      '@type': 'AggregateRating',
      ratingValue: rating.value,
      ratingCount: rating.count,
      bestRating: 5,
      worstRating: 1,
    },
  };
  return { application, organization };
}
