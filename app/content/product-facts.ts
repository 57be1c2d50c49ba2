import { siteConfig } from '#shared/site-config.ts';

/**
 * Product details the site names that the spec leaves open (decision 030). One place, so feature
 * pages, examples and the terminal demo agree.
 */

/** The include filter file in the repository that selects which metadata flows. */
export const includeFilterPath = `.${siteConfig.cliName}/include.yml`;

/** What the CLI needs to run (docs/product-rules.md#product). */
export const requirements = {
  dotnet: '.NET 8.0',
  git: 'Git 2.39 or later',
  /** Salesforce editions that offer the Metadata API. */
  salesforceEditions:
    'Enterprise, Unlimited, Performance or Developer Edition, or Professional Edition with the Web Services API add-on',
} as const;
