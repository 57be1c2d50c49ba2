/**
 * Every page of the site with its title and meta description: the single list that the page
 * modules, the sitemap and the navigation read.
 */
export interface PageInfo {
  path: string;
  /** Shown as `<title> - Orgsmith`; the home page uses `documentTitle` as is. */
  title: string;
  documentTitle?: string;
  description: string;
  /** Left out of the sitemap and marked noindex, nofollow. */
  noindex?: boolean;
}

export const pages = {
  home: {
    path: '/',
    title: 'Home',
    documentTitle: 'Orgsmith - Salesforce DevOps from the command line',
    description:
      'Orgsmith is a command-line DevOps tool that moves Salesforce metadata between orgs and Git: inbound, outbound and atomic merge flows, priced per org. Start a free two-month trial.',
  },
  featureEndToEnd: {
    path: '/features/end-to-end-salesforce-devops',
    title: 'End-to-End Salesforce DevOps',
    description:
      'Environments pair a Salesforce org with a Git branch; stacks group them. Inbound, outbound and merge flows move metadata between orgs and Git end to end.',
  },
  featureSmartMetadata: {
    path: '/features/smart-metadata-features',
    title: 'Smart Metadata Features',
    description:
      'An include filter in your repository, batching past the 10,000-component Metadata API limit, change detection, normalization, pruning and partial deployments.',
  },
  featureDevopsDna: {
    path: '/features/true-devops-dna',
    title: 'True DevOps DNA',
    description:
      'Git is the source of truth: one branch per environment, an atomic merge flow that changes nothing if any part fails, metadata rollback and branch switching.',
  },
  featureCiCd: {
    path: '/features/ci-cd-platform-integration',
    title: 'CI/CD Platform Integration',
    description:
      'Run Orgsmith in any CI: a GitHub Actions setup action, Docker images for linux/amd64 and linux/arm64, and --checkOnly validation runs on every pull request.',
  },
  featureRobustness: {
    path: '/features/enterprise-grade-robustness',
    title: 'Enterprise-Grade Robustness',
    description:
      'Encrypted credentials stored locally or in a cloud state store, atomic operations and automatic retries. Runs wherever .NET 8 runs, with Git 2.39 or later.',
  },
  featureToolbox: {
    path: '/features/toolbox-commands',
    title: 'Toolbox Commands',
    description:
      'Retrieve, deploy, normalize, prune, diff, stats, manifest, apply, commit and sandbox commands: the building blocks behind the Orgsmith flows, at your fingertips.',
  },
  serviceDeployment: {
    path: '/services/deployment-as-a-service',
    title: 'Deployment as a Service',
    description:
      'We design, build and operate your Salesforce release pipeline with Orgsmith, so your team ships changes without running the plumbing.',
  },
  serviceDesignBuild: {
    path: '/services/design-and-build',
    title: 'Design & Build',
    description:
      'We design and build a Salesforce DevOps pipeline on Orgsmith around your orgs and branches, then hand it over to your team with documentation and training.',
  },
  pricing: {
    path: '/pricing',
    title: 'Pricing',
    description:
      'Orgsmith is priced per Salesforce org, not per user: a free Starter edition, Pro from 495 USD a month for 4 orgs, and Enterprise with unlimited orgs and an SLA.',
  },
  support: {
    path: '/support',
    title: 'Support',
    description:
      'Free technical support for every Orgsmith licence, trials included, by e-mail or in the community chat. Enterprise adds a 24-hour response SLA.',
  },
  download: {
    path: '/download',
    title: 'Download',
    description:
      'Download the Orgsmith CLI for Windows, macOS or Linux, pull the Docker image, or set it up in GitHub Actions. Checksums and the change log included.',
  },
  security: {
    path: '/security',
    title: 'Security',
    description:
      'How Orgsmith keeps licence keys, what a licence certificate proves, how releases are signed and verified, SBOMs, backups, data retention and how to report a vulnerability.',
  },
  imprint: {
    path: '/imprint',
    title: 'Imprint',
    description: 'Legal notice (Impressum) of Orgsmith GmbH, in English and German.',
  },
  eula: {
    path: '/eula/cli',
    title: 'End User License Agreement',
    description:
      'The licence terms of the Orgsmith command-line tool, version 1 of 2021-07-31, also available as a PDF.',
  },
  privacy: {
    path: '/privacy',
    title: 'Privacy Policy',
    description:
      'How Orgsmith handles personal data: licences, contact messages, payments, e-mail, cookies and analytics. Version 1 of 2021-07-31.',
  },
  checkoutSuccess: {
    path: '/checkout-success',
    title: 'Checkout Successful',
    description: 'Thank you for your purchase: your Orgsmith licence key is on its way by e-mail.',
    noindex: true,
  },
  replaceLicenceKey: {
    path: '/replace-licence-key',
    title: 'Replace your licence key',
    description:
      'Lost your Orgsmith licence key? Replace it with a new one, sent to the licence e-mail address.',
    noindex: true,
  },
  licences: {
    path: '/licences',
    title: 'Your licences',
    description:
      'Sign in with a code e-mailed to your licence address: your Orgsmith licences, the orgs that use them, and your invoices.',
    noindex: true,
  },
  licencesContinue: {
    path: '/licences/continue',
    title: 'Sign in to your licences',
    description: 'Continue signing in to your Orgsmith licences from the link in your e-mail.',
    noindex: true,
  },
  billingPortal: {
    path: '/billing-portal',
    title: 'Manage your subscription',
    description:
      'Open the Orgsmith billing portal from the link in your e-mail: upgrade, downgrade or cancel your subscription and edit your billing information.',
    noindex: true,
  },
  invoiceOrder: {
    path: '/invoice-order',
    title: 'Confirm your invoice order',
    description:
      'Confirm or cancel an Orgsmith order paid by invoice from the link in its e-mail: nothing is ordered until you confirm.',
    noindex: true,
  },
  keepTrialKey: {
    path: '/keep-trial-key',
    title: 'Keep using your trial key',
    description:
      'Move the subscription you bought onto your Orgsmith trial licence, from the link in your licence e-mail: your trial key keeps working.',
    noindex: true,
  },
  quoteAccept: {
    path: '/quote/accept',
    title: 'Accept your quote',
    description:
      'Your Orgsmith quote: the plan, its price and how to accept it, from the link in the quote.',
    noindex: true,
  },
} as const satisfies Record<string, PageInfo>;

export type PageKey = keyof typeof pages;

export const featurePages = [
  pages.featureEndToEnd,
  pages.featureSmartMetadata,
  pages.featureDevopsDna,
  pages.featureCiCd,
  pages.featureRobustness,
  pages.featureToolbox,
] as const;

export const servicePages = [pages.serviceDeployment, pages.serviceDesignBuild] as const;
