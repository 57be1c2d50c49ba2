import type { CheckoutStatus } from '#shared/contracts/checkout.ts';
import { siteConfig } from '#shared/site-config.ts';

/** Product rules (docs/product-rules.md#pages, #constants): what a buyer sees after checkout; the licence e-mail may take up to 10 minutes. */
export const licenceEmailWaitMinutes = 10;

const junkFolderStep = {
  title: 'Look in your junk folder',
  text: 'If the message is not in your inbox, check your junk or spam folder — automatic messages sometimes land there.',
};

/**
 * The page says only what applies to the purchase (decision 184): a new licence key by e-mail —
 * also when the page cannot tell (no session, or too many lookups) — or, for a converted trial,
 * the same key with a confirmation by e-mail.
 */
export const checkoutSuccessContent = {
  congratulation: `Congratulations, and thank you for choosing ${siteConfig.productName}!`,
  newKey: {
    summary:
      'Your purchase is complete. Your licence key is on its way to the e-mail address you gave at checkout.',
    steps: [
      {
        title: 'Check your inbox',
        text: 'The e-mail with your licence key also explains how to give it to the CLI, how to create an access token for CI and how to manage your subscription.',
      },
      junkFolderStep,
      {
        title: `Nothing after ${licenceEmailWaitMinutes} minutes?`,
        text: 'Contact our support and tell us the e-mail address you used at checkout. We will send your licence key by hand.',
      },
    ],
  },
  upgrade: {
    summary: 'Your purchase is complete.',
    steps: [
      {
        title: 'Check your inbox',
        text: 'The confirmation names your new plan and explains how to manage your subscription. Your key does not change, so there is nothing to set up again.',
      },
      junkFolderStep,
      {
        title: `Nothing after ${licenceEmailWaitMinutes} minutes?`,
        text: 'Contact our support and tell us the e-mail address of your licence. Your key works with the new plan either way.',
      },
    ],
  },
  supportLinkLabel: `Contact support at ${siteConfig.supportEmail}`,
  next: {
    heading: 'While you wait',
    download: 'Download the CLI',
    docs: 'Read the quick start',
  },
} as const;

/** The summary and steps for the checkout's status: the upgrade's only for a converted trial. */
export function purchaseContent(status: CheckoutStatus) {
  return status.state === 'issued' && status.converted
    ? checkoutSuccessContent.upgrade
    : checkoutSuccessContent.newKey;
}
