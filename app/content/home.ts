import { siteConfig } from '#shared/site-config.ts';
import { pages } from '../pages.ts';
import type { PageInfo } from '../pages.ts';
import type { FeatureIconName } from '../components/content/FeatureIcon.tsx';

export interface FeatureCard {
  page: PageInfo;
  icon: FeatureIconName;
  text: string;
}

export interface GettingStartedStep {
  title: string;
  text: string;
  link: { label: string; href: string; external: boolean };
}

export const homeContent = {
  hero: {
    eyebrow: siteConfig.tagline,
    title: 'Your Salesforce orgs, versioned in Git and deployed with confidence',
    text: `${siteConfig.productName} pairs every org with a Git branch and moves metadata with three flows: inbound from the org into Git, outbound from Git to the org, and an atomic merge from one environment to the next — from your laptop or any CI pipeline.`,
    note: 'Free two-month trial · no credit card · priced per org, not per user',
  },
  audience:
    'Built for Salesforce admins, developers, DevOps engineers and release managers who want every change in version control.',
  features: {
    heading: 'Everything a Salesforce release needs, in one CLI',
    intro:
      'From the first sandbox to production: environments and flows, metadata handling that copes with large orgs, Git as the source of truth and pipelines on any CI.',
    cards: [
      {
        page: pages.featureEndToEnd,
        icon: 'flows',
        text: 'Environments pair each org with a branch; stacks group them around one production org. Inbound, outbound and merge flows cover the whole path.',
      },
      {
        page: pages.featureSmartMetadata,
        icon: 'metadata',
        text: 'An include filter in your repository, batching past 10,000 components, change detection, normalization and deployments that finish.',
      },
      {
        page: pages.featureDevopsDna,
        icon: 'git',
        text: 'Git is the source of truth: one branch per environment, an atomic merge flow, metadata rollback and branch switching.',
      },
      {
        page: pages.featureCiCd,
        icon: 'pipeline',
        text: 'A GitHub Actions setup action, Docker images for linux/amd64 and linux/arm64, and --checkOnly validation on every pull request.',
      },
      {
        page: pages.featureRobustness,
        icon: 'shield',
        text: 'Credentials encrypted with your own key, atomic operations, automatic retries, and every platform .NET 8 runs on.',
      },
      {
        page: pages.featureToolbox,
        icon: 'toolbox',
        text: 'Retrieve, diff, normalize, deploy and manage sandboxes step by step, plus a reference of every command and option.',
      },
    ] satisfies FeatureCard[],
  },
  howItWorks: {
    heading: 'How it works',
    intro: 'Three ideas carry the whole tool.',
    points: [
      {
        title: 'Environment = org + branch',
        text: 'Every Salesforce org, sandbox or production, is paired with its own Git branch. The branch says what the org should contain.',
      },
      {
        title: 'Flows move metadata',
        text: 'flow:in commits org changes to the branch, flow:out deploys the branch to the org, flow:merge promotes one environment into another in one atomic step.',
      },
      {
        title: 'Stacks hold it together',
        text: 'The environments of a stack share one production org, one repository and one flow configuration, so every step follows the same rules.',
      },
    ],
  },
  gettingStarted: {
    heading: 'Get started in four steps',
    steps: [
      {
        title: 'Download the CLI',
        text: 'Installers for Windows, macOS and Linux, Docker images and a GitHub Actions setup action.',
        link: { label: 'Download', href: pages.download.path, external: false },
      },
      {
        title: 'Follow the quick start',
        text: 'Create a stack, add a sandbox as an environment and run your first inbound flow in about fifteen minutes.',
        link: { label: 'Read the docs', href: siteConfig.links.docs, external: true },
      },
      {
        title: 'Join the community',
        text: 'Ask questions, share pipelines and meet other Salesforce teams and our engineers in the community chat.',
        link: {
          label: 'Open the community chat',
          href: siteConfig.links.communityChat,
          external: true,
        },
      },
      {
        title: 'Choose your plan',
        text: 'Stay on the free Starter edition or pick Pro or Enterprise, priced per org rather than per user.',
        link: { label: 'See pricing', href: pages.pricing.path, external: false },
      },
    ] satisfies GettingStartedStep[],
  },
  closing: {
    heading: 'Start your free two-month trial',
    text: 'Every feature, no limits and no credit card. Your licence key arrives by e-mail a few minutes after you ask for it.',
  },
} as const;
