import { siteConfig } from '#shared/site-config.ts';
import { priceConfig } from '#shared/pricing/index.ts';

const { cliName, productName, supportEmail, company, securityEmail, vulnerabilityDisclosure } =
  siteConfig;

export const supportContent = {
  eyebrow: 'Support',
  summary: `Technical support is free for every ${productName} licence — Starter, Pro, Enterprise and trials alike. Ask in the community chat or write to us by e-mail: the engineers who build the CLI answer.`,
  channels: {
    heading: 'How to reach us',
    chat: {
      title: 'Community chat',
      text: 'Ask questions, share pipeline setups and learn from other Salesforce teams. Our engineers are in the chat every business day.',
      linkLabel: 'Open the community chat',
    },
    email: {
      title: 'E-mail support',
      text: 'For anything about your orgs, your licence or a failed deployment. We answer every message, usually within one business day.',
      linkLabel: `Write to ${supportEmail}`,
    },
    docs: {
      title: 'Documentation',
      text: 'Installation, the quick start, every command and option, CI recipes and troubleshooting guides.',
      linkLabel: 'Read the documentation',
    },
  },
  freeForAll: {
    heading: 'Free for every licence, trials included',
    text: `You do not need a paid plan to get help. Whether you are evaluating ${productName} on a trial, running the free Starter edition or on Pro, you get the same technical support by e-mail and in the community chat.`,
  },
  sla: {
    heading: `Enterprise: a response within ${priceConfig.enterpriseSlaResponseHours} hours`,
    text: `Enterprise licences include a support SLA: we respond to every request within at most ${priceConfig.enterpriseSlaResponseHours} hours on business days — Monday to Friday, except public holidays in ${company.city}. Send your request from the e-mail address of your licence so we can see it is covered.`,
  },
  request: {
    heading: 'What to include in a request',
    intro: 'A complete first message saves a round trip. Please send:',
    items: [
      {
        title: 'The CLI version',
        text: `the output of ${cliName} --version`,
      },
      {
        title: 'Your operating system',
        text: 'with its version, and whether the CLI runs on a workstation, in Docker or in CI (and which one)',
      },
      {
        title: 'The command',
        text: 'exactly as you ran it, with all options',
      },
      {
        title: 'The logs',
        text: 'the complete console output of the failing run, and the log file if there is one',
      },
    ],
    warning:
      'Check logs for sensitive data before you send them. Logs can contain usernames, org and instance URLs, record IDs and metadata such as Apex code. Remove or mask anything you do not want to share. We never need passwords, access tokens, your credentials key or your full licence key.',
    templateLabel: 'support request template',
    template: (version: string) => `Subject: flow:out fails on environment uat

CLI version:       ${cliName} ${version}
Operating system:  Ubuntu 22.04 (GitHub Actions runner)
Command:           ${cliName} flow:out --environment uat --checkOnly
What happened:     …
What I expected:   …
Logs:              attached, checked for sensitive data`,
  },
  security: {
    heading: 'Reporting a security vulnerability',
    intro: `If you believe you have found a vulnerability in the ${productName} CLI, this website or the licensing service, please tell us privately at ${securityEmail} before telling anyone else. Include what you found, how to reproduce it and what an attacker could do with it. Please do not include real customer data.`,
    promises: [
      `We confirm your report within ${vulnerabilityDisclosure.acknowledgeBusinessDays} business days.`,
      `Within ${vulnerabilityDisclosure.assessBusinessDays} business days we tell you how we assess it and when we expect a fix.`,
      `We agree a disclosure date with you, at most ${vulnerabilityDisclosure.disclosureDays} days after your report, and credit you in the release notes if you wish.`,
      'We will not take legal action against research done in good faith that respects our customers’ data and stops at showing the problem.',
    ],
    linkLabel: `Report to ${securityEmail}`,
  },
  other: {
    heading: 'Other questions',
    billing: 'Invoices, upgrades, downgrades or cancelling a subscription:',
    billingLink: 'Manage your subscription',
    sales: 'Questions about plans, our services or a larger rollout:',
    salesLink: 'Get in touch',
  },
} as const;
