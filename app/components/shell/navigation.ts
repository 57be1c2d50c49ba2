import { siteConfig } from '#shared/site-config.ts';
import { pages } from '#app/pages.ts';

/** A page of the site as it appears in the navigation, with a one-line summary for the menus. */
export interface NavPage {
  path: string;
  title: string;
  summary: string;
}

export const featureNav: readonly NavPage[] = [
  { ...pages.featureEndToEnd, summary: 'Orgs, branches and flows, end to end' },
  { ...pages.featureSmartMetadata, summary: 'Include filters, batching, partial deploys' },
  { ...pages.featureDevopsDna, summary: 'Git as the source of truth, atomic merges' },
  { ...pages.featureCiCd, summary: 'GitHub Actions, Docker and any CI' },
  { ...pages.featureRobustness, summary: 'Encrypted credentials, retries, rollback' },
  { ...pages.featureToolbox, summary: 'Retrieve, deploy, diff, prune and more' },
];

export const serviceNav: readonly NavPage[] = [
  { ...pages.serviceDeployment, summary: 'We design, build and operate your pipeline' },
  { ...pages.serviceDesignBuild, summary: 'We design and build it, your team runs it' },
];

/** Links that leave the site. */
export const externalNav = {
  docs: { label: 'Docs', href: siteConfig.links.docs },
  blog: { label: 'Blog', href: siteConfig.links.blog },
} as const;
