import { siteConfig } from '#shared/site-config.ts';
import { MAX_PORTAL_LINKS, type PortalLinks } from '../build-portal-links.ts';
import { describeSubscription } from '../describe-subscription.ts';
import {
  formatEmailDate,
  renderEmail,
  type EmailBlock,
  type RenderedEmail,
} from '#server/platform/email/render-email.ts';

const notYou = 'If you did not ask for this, you can ignore this e-mail: nothing changes.';

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * The billing-portal links of an address with subscriptions: one per payment customer (billing
 * account), each with the subscriptions it manages (decision 092).
 */
export function billingPortalLinksEmail(
  input: PortalLinks & { publicBaseUrl: string },
): RenderedEmail {
  const { links, moreCustomers, expiresAt, publicBaseUrl } = input;
  const product = siteConfig.productName;
  const several = links.length > 1;
  const subscriptionCount = links.reduce(
    (sum, link) => sum + link.subscriptions.length + link.moreSubscriptions,
    0,
  );
  const time = expiresAt.toISOString().slice(11, 16);
  const blocks: EmailBlock[] = [
    { kind: 'paragraph', text: 'Hello,' },
    {
      kind: 'paragraph',
      text: several
        ? `your ${product} subscriptions are billed to ${links.length + moreCustomers} separate billing accounts, so each account has its own link below. In the billing portal you can upgrade, downgrade or cancel a subscription and edit your billing information.`
        : `here is the link to manage your ${product} ${subscriptionCount > 1 ? 'subscriptions' : 'subscription'}. In the billing portal you can upgrade, downgrade or cancel your subscription and edit your billing information.`,
    },
  ];
  links.forEach((link, index) => {
    if (several) blocks.push({ kind: 'heading', text: `Billing account ${index + 1}` });
    blocks.push({
      kind: 'facts',
      items: link.subscriptions.map((subscription) => ({
        label: 'Subscription',
        value: describeSubscription(subscription),
      })),
    });
    if (link.moreSubscriptions > 0) {
      blocks.push({
        kind: 'note',
        text: `This account has ${plural(link.moreSubscriptions, 'more subscription', 'more subscriptions')}; the billing portal shows them all.`,
      });
    }
    blocks.push({
      kind: 'button',
      label: several
        ? `Open the billing portal of account ${index + 1}`
        : 'Open the billing portal',
      url: link.url,
    });
  });
  if (moreCustomers > 0) {
    blocks.push({
      kind: 'note',
      text: `${plural(moreCustomers, 'more billing account is', 'more billing accounts are')} not listed: one e-mail holds at most ${MAX_PORTAL_LINKS} links, those with running subscriptions and the newest first. For the others, write to ${siteConfig.supportEmail}.`,
    });
  }
  blocks.push(
    {
      kind: 'note',
      text: `${several ? 'Each link works' : 'The link works'} once and until ${formatEmailDate(expiresAt)}, ${time} UTC. After that,`,
      link: { label: 'request a new one', url: `${publicBaseUrl}/?modal=portal-access` },
    },
    { kind: 'note', text: notYou },
  );
  return renderEmail({
    subject: `Your ${several ? 'links' : 'link'} to the ${product} billing portal`,
    publicBaseUrl,
    blocks,
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
        text: 'To keep using the tool after the trial, choose a plan on our pricing page. Buy Pro or Enterprise with this same e-mail address and your trial converts to the subscription automatically.',
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
