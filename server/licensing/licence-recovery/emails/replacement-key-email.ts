import { siteConfig } from '#shared/site-config.ts';
import { keyUsageEmailBlocks } from '#server/licensing/key-usage/key-usage-email-blocks.ts';
import { keySafetyNote } from '#server/platform/email/mail-blocks.ts';
import {
  formatEmailDate,
  renderEmail,
  type RenderedEmail,
} from '#server/platform/email/render-email.ts';

/** The new key of a licence whose key was replaced (lost-key link or operator). */
export function replacementKeyEmail(input: {
  key: string;
  email: string;
  licence: { type: 'Trial' | 'Free' | 'Paid'; edition: string; expiresAt: Date | null };
  publicBaseUrl: string;
  accountBaseUrl: string;
}): RenderedEmail {
  const { key, email, licence, publicBaseUrl, accountBaseUrl } = input;
  const product = siteConfig.productName;
  const kind =
    licence.type === 'Trial'
      ? 'Trial (all Enterprise features)'
      : `${licence.edition} (${licence.type})`;
  return renderEmail({
    subject: `Your new ${product} licence key`,
    publicBaseUrl,
    blocks: [
      { kind: 'paragraph', text: 'Hello,' },
      {
        kind: 'paragraph',
        text: `as requested, the key of your ${product} licence was replaced. Here is the new key:`,
      },
      { kind: 'code', text: key },
      {
        kind: 'facts',
        items: [
          { label: 'Licence', value: kind },
          {
            label: 'Valid until',
            value: licence.expiresAt
              ? `${formatEmailDate(licence.expiresAt)} (UTC)`
              : 'no end date',
          },
        ],
      },
      {
        kind: 'paragraph',
        text: 'The previous key no longer works: use the new one wherever you entered the old one. Access tokens created for this licence keep working.',
      },
      keySafetyNote(),
      ...keyUsageEmailBlocks(key, accountBaseUrl),
      { kind: 'facts', items: [{ label: 'Licence e-mail address', value: email }] },
    ],
  });
}
