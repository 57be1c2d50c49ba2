import { siteConfig } from '#shared/site-config.ts';
import {
  keyUsageEmailBlocks,
  licencePageEmailBlock,
} from '#server/licensing/key-usage/key-usage-email-blocks.ts';
import { keySafetyNote } from '#server/platform/email/mail-blocks.ts';
import {
  formatEmailDate,
  renderEmail,
  type RenderedEmail,
} from '#server/platform/email/render-email.ts';

/** What became of the licence's access tokens when its key was replaced (decision 212). */
function tokensText(tokens: { ended: number; kept: number }): string {
  const plural = (n: number) => (n === 1 ? '1 access token' : `${n} access tokens`);
  const ended =
    tokens.ended === 0
      ? 'No access token was ended.'
      : `${plural(tokens.ended)} made for this licence ended with the old key.`;
  const kept =
    tokens.kept === 0
      ? ''
      : ` ${plural(tokens.kept)} you chose to keep ${tokens.kept === 1 ? 'still works' : 'still work'}.`;
  return `${ended}${kept}`;
}

/** The new key of a licence whose key was replaced (lost-key link or operator). */
export function replacementKeyEmail(input: {
  key: string;
  email: string;
  licence: { type: 'Trial' | 'Free' | 'Paid'; edition: string; expiresAt: Date | null };
  tokens: { ended: number; kept: number };
  publicBaseUrl: string;
  accountBaseUrl: string;
}): RenderedEmail {
  const { key, email, licence, tokens, publicBaseUrl, accountBaseUrl } = input;
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
        text: `The previous key no longer works: use the new one wherever you entered the old one. ${tokensText(tokens)}`,
      },
      keySafetyNote(),
      ...keyUsageEmailBlocks(key, accountBaseUrl),
      licencePageEmailBlock(publicBaseUrl),
      { kind: 'facts', items: [{ label: 'Licence e-mail address', value: email }] },
    ],
  });
}
