import { siteConfig } from '#shared/site-config.ts';
import {
  formatEmailDate,
  renderEmail,
  type EmailBlock,
  type RenderedEmail,
} from '#server/platform/email/render-email.ts';
import { KEY_REPLACEMENT_TOKEN_HOURS } from '../key-replacement-token.ts';

export interface LostKeyLicence {
  type: 'Trial' | 'Free' | 'Paid';
  edition: string;
  keyHint: string;
  expiresAt: Date | null;
  /** Where the key can be replaced (the site page with this licence's link token). */
  replaceUrl: string;
}

function describe(licence: LostKeyLicence): string {
  const kind = licence.type === 'Trial' ? 'Trial' : `${licence.edition} (${licence.type})`;
  const until = licence.expiresAt ? `, valid until ${formatEmailDate(licence.expiresAt)}` : '';
  return `${kind}, key ending in ${licence.keyHint}${until}`;
}

/**
 * The answer to "Lost your licence key?": keys are stored only as fingerprints, so the e-mail
 * offers to replace each licence's key with a new one (decision 075).
 */
export function lostKeyEmail(input: {
  email: string;
  licences: LostKeyLicence[];
  publicBaseUrl: string;
}): RenderedEmail {
  const { email, licences, publicBaseUrl } = input;
  const product = siteConfig.productName;
  const several = licences.length > 1;
  const blocks: EmailBlock[] = [
    { kind: 'paragraph', text: 'Hello,' },
    {
      kind: 'paragraph',
      text: `someone — hopefully you — asked for the ${product} licence ${several ? 'keys' : 'key'} of ${email}. We keep only a fingerprint of every key, so we cannot send the old key again. Instead you can replace it: you will receive a new key by e-mail and the old one stops working, together with the access tokens made for the licence (the page lets you keep named ones).`,
    },
  ];
  for (const licence of licences) {
    blocks.push(
      { kind: 'facts', items: [{ label: 'Licence', value: describe(licence) }] },
      { kind: 'button', label: 'Get a new key for this licence', url: licence.replaceUrl },
    );
  }
  blocks.push(
    {
      kind: 'note',
      text: `${several ? 'These links work' : 'This link works'} for ${KEY_REPLACEMENT_TOKEN_HOURS} hours. If you still have your key, or did not ask for this, ignore this e-mail: nothing changes.`,
    },
    { kind: 'facts', items: [{ label: 'Licence e-mail address', value: email }] },
  );
  return renderEmail({
    subject: `Your ${product} licence ${several ? 'keys' : 'key'}`,
    publicBaseUrl,
    blocks,
  });
}
