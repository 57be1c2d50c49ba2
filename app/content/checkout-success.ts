import { siteConfig } from '#shared/site-config.ts';

/** Product rules (docs/product-rules.md#pages, #constants): what a buyer sees after checkout; the licence e-mail may take up to 10 minutes. */
export const licenceEmailWaitMinutes = 10;

export const checkoutSuccessContent = {
  congratulation: `Congratulations, and thank you for choosing ${siteConfig.productName}!`,
  summary:
    'Your purchase is complete. Your licence key is on its way to the e-mail address you gave at checkout.',
  steps: [
    {
      title: 'Check your inbox',
      text: 'The e-mail with your licence key also explains how to activate it and how to manage your subscription.',
    },
    {
      title: 'Look in your junk folder',
      text: 'If the message is not in your inbox, check your junk or spam folder — automatic messages sometimes land there.',
    },
    {
      title: `Nothing after ${licenceEmailWaitMinutes} minutes?`,
      text: 'Contact our support and tell us the e-mail address you used at checkout. We will send your licence key by hand.',
    },
  ],
  supportLinkLabel: `Contact support at ${siteConfig.supportEmail}`,
  next: {
    heading: 'While you wait',
    download: 'Download the CLI',
    docs: 'Read the quick start',
  },
} as const;
