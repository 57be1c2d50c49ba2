import { siteConfig } from '../../../shared/site-config.ts';
import { formatEmailDate, renderEmail, type RenderedEmail } from './render-email.ts';

const notYou = 'If you did not ask for this, you can ignore this e-mail: nothing changes.';

/** The link to the billing portal for an address with a subscription. */
export function billingPortalLinkEmail(input: {
  url: string;
  expiresAt: Date;
  publicBaseUrl: string;
}): RenderedEmail {
  const { url, expiresAt, publicBaseUrl } = input;
  const time = expiresAt.toISOString().slice(11, 16);
  return renderEmail({
    subject: `Your link to the ${siteConfig.productName} billing portal`,
    publicBaseUrl,
    blocks: [
      { kind: 'paragraph', text: 'Hello,' },
      {
        kind: 'paragraph',
        text: `here is the link to manage your ${siteConfig.productName} subscription. In the billing portal you can upgrade, downgrade or cancel your subscription and edit your billing information.`,
      },
      { kind: 'button', label: 'Open the billing portal', url },
      {
        kind: 'note',
        text: `The link works once and until ${formatEmailDate(expiresAt)}, ${time} UTC. After that,`,
        link: { label: 'request a new one', url: `${publicBaseUrl}/?modal=portal-access` },
      },
      { kind: 'note', text: notYou },
    ],
  });
}

/** For an address that holds only a trial: trials cannot be managed; how to buy instead. */
export function trialCannotBeManagedEmail(input: {
  expiresAt: Date | null;
  publicBaseUrl: string;
}): RenderedEmail {
  const { expiresAt, publicBaseUrl } = input;
  const product = siteConfig.productName;
  const until = expiresAt ? `, valid until ${formatEmailDate(expiresAt)}` : '';
  return renderEmail({
    subject: `About managing your ${product} trial`,
    publicBaseUrl,
    blocks: [
      { kind: 'paragraph', text: 'Hello,' },
      {
        kind: 'paragraph',
        text: `you asked for a link to manage your ${product} subscription. This e-mail address holds a trial licence${until}. Trial licences cannot be managed: there is nothing to pay or cancel, and the trial simply ends.`,
      },
      {
        kind: 'paragraph',
        text: 'To keep using the tool after the trial, choose a plan on our pricing page. Buy with this same e-mail address and your trial converts to the subscription automatically.',
      },
      { kind: 'button', label: 'See plans and pricing', url: `${publicBaseUrl}/pricing` },
      { kind: 'note', text: notYou },
    ],
  });
}

/** For an address without any licence: where to find the right address. */
export function noSubscriptionFoundEmail(input: { publicBaseUrl: string }): RenderedEmail {
  const { publicBaseUrl } = input;
  const product = siteConfig.productName;
  return renderEmail({
    subject: `About managing your ${product} subscription`,
    publicBaseUrl,
    blocks: [
      { kind: 'paragraph', text: 'Hello,' },
      {
        kind: 'paragraph',
        text: `you asked for a link to the ${product} billing portal, but we found no subscription for this e-mail address.`,
      },
      {
        kind: 'paragraph',
        text: 'Please ask again with the e-mail address you gave at purchase: it is shown at the bottom of your licence key e-mail. If you need help, write to our support.',
      },
      { kind: 'button', label: 'Request a new link', url: `${publicBaseUrl}/?modal=portal-access` },
      { kind: 'note', text: notYou },
    ],
  });
}
