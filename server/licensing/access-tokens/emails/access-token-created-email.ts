import { siteConfig } from '#shared/site-config.ts';
import {
  formatEmailDateTime,
  renderEmail,
  type EmailBlock,
  type RenderedEmail,
} from '#server/platform/email/render-email.ts';
import { visitorTextForEmail } from '#server/platform/email/visitor-text.ts';

/** Where a token was made: by the licence key over the API, or by our support. */
export type TokenCreatedFrom =
  { kind: 'self-service'; ipAddress: string; userAgent: string | null } | { kind: 'operator' };

/**
 * The program a User-Agent names first (`curl/8.5.0 …` → `curl`): the client chose the header, so
 * only a plain word of it reaches the owner's mailbox, through the visitor-text rule (decision 159).
 */
function programOf(userAgent: string | null): string | undefined {
  const first = /^[A-Za-z][A-Za-z0-9_-]{0,39}/.exec(userAgent ?? '')?.[0];
  return visitorTextForEmail(first);
}

function clientText(from: TokenCreatedFrom): string {
  if (from.kind === 'operator') return `${siteConfig.productName} support (an operator command)`;
  const program = programOf(from.userAgent);
  return `IP address ${from.ipAddress}${program ? `, program "${program}"` : ''}`;
}

/**
 * Tells the licence's address that an access token was made for it (decision 212): whoever holds
 * the key can make one, so the owner hears of each, with the way to end them all if it was not
 * them. The token's name was typed by whoever made it and goes through the visitor-text rule.
 */
export function accessTokenCreatedEmail(input: {
  email: string;
  token: { name: string; hint: string; createdAt: Date };
  keyHint: string;
  from: TokenCreatedFrom;
  /** The lost-key page with a link token for this licence (24 hours, single use). */
  replaceUrl: string;
  replaceLinkHours: number;
  publicBaseUrl: string;
}): RenderedEmail {
  const { email, token, keyHint, from, replaceUrl, replaceLinkHours, publicBaseUrl } = input;
  const product = siteConfig.productName;
  const name = visitorTextForEmail(token.name);
  const blocks: EmailBlock[] = [
    { kind: 'paragraph', text: 'Hello,' },
    {
      kind: 'paragraph',
      text: `an access token was created for your ${product} licence. It works like the licence key wherever the ${product} CLI runs, until it is revoked.`,
    },
    {
      kind: 'facts',
      items: [
        {
          label: 'Token name',
          value: name ? `"${name}"` : '(not shown here: it looks like a web address)',
        },
        { label: 'Token ends in', value: token.hint },
        { label: 'Created', value: formatEmailDateTime(token.createdAt) },
        { label: 'Created from', value: clientText(from) },
        { label: 'Licence key', value: `ends in ${keyHint}` },
      ],
    },
    { kind: 'paragraph', text: 'If this was you or your team, there is nothing to do.' },
    { kind: 'heading', text: 'Not you?' },
    {
      kind: 'paragraph',
      text: `Then someone else has your licence key. Replace the key: the old key stops working, and so does every access token made for the licence, this one included (you can keep the tokens you name).`,
    },
    { kind: 'button', label: 'Replace my licence key', url: replaceUrl },
    {
      kind: 'note',
      text: `This link works once, for ${replaceLinkHours} hours. Later, ask for a new one under "Lost your licence key?"`,
      link: { label: 'on the support page', url: `${publicBaseUrl}/support` },
    },
    { kind: 'facts', items: [{ label: 'Licence e-mail address', value: email }] },
  ];
  return renderEmail({
    subject: `A new access token for your ${product} licence`,
    publicBaseUrl,
    blocks,
  });
}
