import { siteConfig } from '#shared/site-config.ts';
import {
  keyUsageEmailBlocks,
  licencePageEmailBlock,
} from '#server/licensing/key-usage/key-usage-email-blocks.ts';
import { gettingStartedBlocks, keySafetyNote } from '#server/platform/email/mail-blocks.ts';
import {
  formatEmailDate,
  renderEmail,
  type RenderedEmail,
} from '#server/platform/email/render-email.ts';

/** The licence e-mail of a new trial: the key (its only appearance), expiry and first steps. */
export function trialLicenceEmail(input: {
  key: string;
  email: string;
  expiresAt: Date;
  publicBaseUrl: string;
  /** Where the account service answers (ACCOUNT_API_URL); defaults to the site's origin. */
  accountBaseUrl?: string;
}): RenderedEmail {
  const { key, email, expiresAt, publicBaseUrl } = input;
  const product = siteConfig.productName;
  return renderEmail({
    subject: `Your ${product} trial licence key`,
    publicBaseUrl,
    blocks: [
      { kind: 'paragraph', text: 'Hello,' },
      {
        kind: 'paragraph',
        text: `thank you for trying ${product}. Here is your licence key for the free two-month trial, with every Enterprise feature and no limits:`,
      },
      { kind: 'code', text: key },
      {
        kind: 'facts',
        items: [
          { label: 'Licence', value: 'Trial (all Enterprise features)' },
          { label: 'Valid until', value: `${formatEmailDate(expiresAt)} (UTC)` },
        ],
      },
      keySafetyNote(),
      ...gettingStartedBlocks(publicBaseUrl, [
        { label: 'Compare plans for after the trial', url: `${publicBaseUrl}/pricing` },
      ]),
      {
        kind: 'paragraph',
        text: 'When you buy Pro or Enterprise with this same e-mail address, your trial converts to it automatically.',
      },
      {
        kind: 'note',
        text: 'By using this licence key you accept the',
        link: { label: 'End User License Agreement', url: `${publicBaseUrl}/eula/cli` },
      },
      ...keyUsageEmailBlocks(key, input.accountBaseUrl ?? publicBaseUrl),
      licencePageEmailBlock(publicBaseUrl),
      { kind: 'facts', items: [{ label: 'Licence e-mail address', value: email }] },
    ],
  });
}
