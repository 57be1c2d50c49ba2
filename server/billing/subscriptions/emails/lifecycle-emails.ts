import { planName, type Edition } from '#shared/pricing/index.ts';
import { siteConfig } from '#shared/site-config.ts';
import {
  keyUsageEmailBlocks,
  licencePageEmailBlock,
} from '#server/licensing/key-usage/key-usage-email-blocks.ts';
import { gettingStartedBlocks, keySafetyNote } from '#server/platform/email/mail-blocks.ts';
import type { QueuedEmail } from '#server/platform/email/outbox-repository.ts';
import {
  formatEmailDate,
  renderEmail,
  type EmailBlock,
  type RenderedEmail,
} from '#server/platform/email/render-email.ts';
import {
  INVOICE_SUSPEND_AFTER_DAYS,
  suspensionDate,
} from '#server/billing/subscriptions/invoice-rules.ts';
import {
  documentLinkLabel,
  type DocumentLink,
} from '#server/billing/documents/payment-document.ts';
import type { LifecycleEvent } from '../lifecycle-rules.ts';

/**
 * The e-mails of a subscription's life (docs/product-rules.md#behaviour): the key on purchase, the trial conversion,
 * a failed payment, deactivation, reactivation, deletion notice and cancellation. Each ends
 * with the licence address, which is what the billing-portal dialog asks for.
 */

const product = siteConfig.productName;

export interface LicenceFacts {
  email: string;
  edition: Edition;
  quantity: number;
  /** The last group of the key, so a customer with several keys knows which one is meant. */
  keyHint: string;
}

function portalStep(publicBaseUrl: string): EmailBlock {
  return {
    kind: 'button',
    label: 'Manage your subscription',
    url: `${publicBaseUrl}/?modal=portal-access`,
  };
}

function addressFooter(licence: LicenceFacts): EmailBlock[] {
  return [
    {
      kind: 'note',
      text: 'To manage your subscription, ask for a billing-portal link with the e-mail address below: it is the address you gave at purchase.',
    },
    { kind: 'facts', items: [{ label: 'Licence e-mail address', value: licence.email }] },
  ];
}

/** The payment's invoice or receipt, linked (decision 180). */
function documentBlocks(document: DocumentLink | null | undefined): EmailBlock[] {
  if (!document) return [];
  const noun = document.kind === 'receipt' ? 'receipt' : 'invoice';
  return [
    {
      kind: 'paragraph',
      text: `Your ${noun} for this payment, to file with your accounts:`,
      link: { label: documentLinkLabel(document), url: document.url },
    },
  ];
}

function keyFacts(licence: LicenceFacts, extra: Array<{ label: string; value: string }> = []) {
  return {
    kind: 'facts' as const,
    items: [
      { label: 'Licence', value: planName(licence.edition, licence.quantity) },
      { label: 'Licence key', value: `ends in ${licence.keyHint}` },
      ...extra,
    ],
  };
}

/**
 * What the buyer has: paid until the period's end, or, for an order by invoice not yet paid, the
 * invoice and its due date and what happens if it stays unpaid (decision 183).
 */
function termsBlocks(
  licence: LicenceFacts,
  renewsAt: Date,
  openInvoice: { number: string; dueAt: Date } | null,
): EmailBlock[] {
  const plan = { label: 'Licence', value: planName(licence.edition, licence.quantity) };
  if (licence.edition === 'Starter') {
    return [
      {
        kind: 'facts',
        items: [
          plan,
          { label: 'Renews', value: `${formatEmailDate(renewsAt)} (renews automatically)` },
        ],
      },
    ];
  }
  if (!openInvoice) {
    return [
      {
        kind: 'facts',
        items: [
          plan,
          { label: 'Paid until', value: `${formatEmailDate(renewsAt)} (renews automatically)` },
        ],
      },
    ];
  }
  return [
    {
      kind: 'facts',
      items: [
        plan,
        {
          label: 'Invoice',
          value: `${openInvoice.number}, unpaid, due ${formatEmailDate(openInvoice.dueAt)}`,
        },
        { label: 'Valid until', value: `${formatEmailDate(renewsAt)} once the invoice is paid` },
      ],
    },
    {
      kind: 'paragraph',
      text: `The key works from now on. If the invoice is still unpaid on ${formatEmailDate(suspensionDate(openInvoice.dueAt))}, ${INVOICE_SUSPEND_AFTER_DAYS} days after its due date, the key stops working until the payment arrives.`,
    },
  ];
}

/** A new Paid or Free licence: the key, its only appearance. */
export function licenceKeyEmail(input: {
  key: string;
  licence: LicenceFacts;
  renewsAt: Date;
  publicBaseUrl: string;
  /** Where the account service answers: ACCOUNT_API_URL, else the site's origin. */
  accountBaseUrl: string;
  /** An order by invoice not paid yet: its invoice (the key works before the money arrives). */
  openInvoice?: { number: string; dueAt: Date } | null;
  /** The payment's invoice or receipt; none for a free plan. */
  document?: DocumentLink | null;
  /** A trial of this address the buyer may keep using instead of this key (decision 213). */
  keepTrial?: { keyHint: string; url: string } | null;
  /** Who bought the licence for this address, when it is a holder's (decision 223). */
  boughtBy?: LicenceBuyer | null;
}): RenderedEmail {
  const { key, licence, renewsAt, publicBaseUrl, accountBaseUrl } = input;
  const free = licence.edition === 'Starter';
  const buyer = input.boughtBy;
  return renderEmail({
    subject: `Your ${product} ${licence.edition} licence key`,
    publicBaseUrl,
    blocks: [
      { kind: 'paragraph', text: 'Hello,' },
      {
        kind: 'paragraph',
        text: buyer
          ? `${buyerName(buyer)} bought this licence for you (${planName(licence.edition, licence.quantity)}) and named you its holder. Here is your licence key:`
          : free
            ? `welcome to ${product} Starter. Here is your licence key for the free edition:`
            : `thank you for your purchase. Here is your licence key for ${planName(licence.edition, licence.quantity)}:`,
      },
      { kind: 'code', text: key },
      ...termsBlocks(licence, renewsAt, input.openInvoice ?? null),
      ...(buyer
        ? [
            {
              kind: 'note' as const,
              text: `The invoices and payment e-mails go to ${buyer.email}. If you do not know this purchase, ignore this e-mail: the key only works where it is entered.`,
            },
          ]
        : []),
      ...keepTrialBlocks(input.keepTrial),
      ...documentBlocks(input.document),
      keySafetyNote(),
      ...gettingStartedBlocks(publicBaseUrl),
      {
        kind: 'note',
        text: `By using this licence key you accept the End User License Agreement: ${publicBaseUrl}/eula/cli`,
      },
      ...keyUsageEmailBlocks(key, accountBaseUrl),
      licencePageEmailBlock(publicBaseUrl),
      ...addressFooter(licence),
    ],
  });
}

/**
 * The offer to keep a trial's key for a subscription bought with its address (decision 213): only
 * this mailbox gets the link, and only its page's button moves the subscription.
 */
function keepTrialBlocks(keepTrial: { keyHint: string; url: string } | null | undefined) {
  if (!keepTrial) return [];
  return [
    { kind: 'heading' as const, text: 'Keep using your trial key' },
    {
      kind: 'paragraph' as const,
      text: `This address also has a trial licence, its key ending in ${keepTrial.keyHint}. If you would rather keep using that key, nothing needs to change on your machines: open the link below and confirm, and your trial becomes this subscription's licence. The key above then stops working.`,
    },
    {
      kind: 'button' as const,
      label: `Keep using your trial key (ending in ${keepTrial.keyHint})`,
      url: keepTrial.url,
    },
  ];
}

/** Who paid for a licence made for its holder (decision 223). */
export interface LicenceBuyer {
  email: string;
  companyName: string | null;
}

function buyerName(buyer: LicenceBuyer): string {
  return buyer.companyName ? `${buyer.companyName} (${buyer.email})` : buyer.email;
}

/**
 * To the billing address of a purchase whose licence is a holder's (decision 223): where the key
 * went, without the key, and the payment's document; the invoice or receipt also comes on its own.
 */
export function licenceSentToHolderEmail(input: {
  holderEmail: string;
  licence: Omit<LicenceFacts, 'email'>;
  openInvoice?: { number: string; dueAt: Date } | null;
  document?: DocumentLink | null;
  publicBaseUrl: string;
}): RenderedEmail {
  const { licence, publicBaseUrl } = input;
  const plan = planName(licence.edition, licence.quantity);
  return renderEmail({
    subject: `Your ${product} licence key went to ${input.holderEmail}`,
    publicBaseUrl,
    blocks: [
      { kind: 'paragraph', text: 'Hello,' },
      {
        kind: 'paragraph',
        text: `thank you for your purchase of ${plan}. As you asked, the licence key went to its holder, ${input.holderEmail}; this address gets the invoices, receipts and payment e-mails.`,
      },
      {
        kind: 'facts',
        items: [
          { label: 'Licence', value: plan },
          { label: 'Licence holder', value: input.holderEmail },
          { label: 'Licence key', value: `ends in ${licence.keyHint}` },
          ...(input.openInvoice
            ? [
                {
                  label: 'Invoice',
                  value: `${input.openInvoice.number}, unpaid, due ${formatEmailDate(input.openInvoice.dueAt)}`,
                },
              ]
            : []),
        ],
      },
      ...documentBlocks(input.document),
    ],
  });
}

/** A trial became a subscription: same key, now Paid (or Free). */
export function trialConvertedEmail(input: {
  licence: LicenceFacts;
  renewsAt: Date;
  publicBaseUrl: string;
  /** The payment's invoice or receipt. */
  document?: DocumentLink | null;
}): RenderedEmail {
  const { licence, renewsAt, publicBaseUrl } = input;
  return renderEmail({
    subject: `Your ${product} trial is now ${planName(licence.edition, licence.quantity)}`,
    publicBaseUrl,
    blocks: [
      { kind: 'paragraph', text: 'Hello,' },
      {
        kind: 'paragraph',
        text: `thank you for your purchase. Your trial licence has been converted: keep using the same licence key, nothing needs to change on your machines or in your pipelines.`,
      },
      keyFacts(licence, [
        { label: 'Renews', value: `${formatEmailDate(renewsAt)} (automatically)` },
      ]),
      ...documentBlocks(input.document),
      portalStep(publicBaseUrl),
      ...addressFooter(licence),
    ],
  });
}

export function paymentFailedEmail(input: {
  licence: LicenceFacts;
  publicBaseUrl: string;
}): RenderedEmail {
  const { licence, publicBaseUrl } = input;
  return renderEmail({
    subject: `Your ${product} payment failed`,
    publicBaseUrl,
    blocks: [
      { kind: 'paragraph', text: 'Hello,' },
      {
        kind: 'paragraph',
        text: `we could not collect the latest payment for your ${product} subscription. Your licence keeps working while we try again over the next days.`,
      },
      {
        kind: 'paragraph',
        text: 'Please check or update your card in the billing portal so the next attempt succeeds.',
      },
      keyFacts(licence),
      portalStep(publicBaseUrl),
      ...addressFooter(licence),
    ],
  });
}

export function licenceDeactivatedEmail(input: {
  licence: LicenceFacts;
  reactivateBy: Date;
  /** Suspended for an invoice left unpaid (decision 144) rather than a failed card. */
  unpaidInvoice?: boolean;
  publicBaseUrl: string;
}): RenderedEmail {
  const { licence, reactivateBy, publicBaseUrl } = input;
  if (input.unpaidInvoice) {
    return renderEmail({
      subject: `Your ${product} licence was deactivated`,
      publicBaseUrl,
      blocks: [
        { kind: 'paragraph', text: 'Hello,' },
        {
          kind: 'paragraph',
          text: `the invoice for your ${product} subscription is still unpaid two weeks after its due date, so your licence has been suspended: the CLI no longer accepts its key.`,
        },
        {
          kind: 'paragraph',
          text: `Pay the invoice by ${formatEmailDate(reactivateBy)} (the link is in the invoice e-mail and our reminders) and the same key works again as soon as the payment arrives. After that date the licence is marked for deletion.`,
        },
        keyFacts(licence, [{ label: 'Reactivate by', value: formatEmailDate(reactivateBy) }]),
        ...addressFooter(licence),
      ],
    });
  }
  return renderEmail({
    subject: `Your ${product} licence was deactivated`,
    publicBaseUrl,
    blocks: [
      { kind: 'paragraph', text: 'Hello,' },
      {
        kind: 'paragraph',
        text: `the payment for your ${product} subscription could not be collected, so your licence has been deactivated: the CLI no longer accepts its key.`,
      },
      {
        kind: 'paragraph',
        text: `Pay the open invoice by ${formatEmailDate(reactivateBy)} (update your card in the billing portal) and the same key works again at once. After that date the licence is marked for deletion.`,
      },
      keyFacts(licence, [{ label: 'Reactivate by', value: formatEmailDate(reactivateBy) }]),
      portalStep(publicBaseUrl),
      ...addressFooter(licence),
    ],
  });
}

export function licenceReactivatedEmail(input: {
  licence: LicenceFacts;
  paidUntil: Date | null;
  publicBaseUrl: string;
}): RenderedEmail {
  const { licence, paidUntil, publicBaseUrl } = input;
  return renderEmail({
    subject: `Your ${product} licence is active again`,
    publicBaseUrl,
    blocks: [
      { kind: 'paragraph', text: 'Hello,' },
      {
        kind: 'paragraph',
        text: `thank you, your payment arrived. Your licence is active again and its key works as before.`,
      },
      keyFacts(
        licence,
        paidUntil ? [{ label: 'Paid until', value: formatEmailDate(paidUntil) }] : [],
      ),
      ...addressFooter(licence),
    ],
  });
}

export function deletionScheduledEmail(input: {
  licence: LicenceFacts;
  deleteAt: Date;
  reason: 'lapsed' | 'ended';
  publicBaseUrl: string;
}): RenderedEmail {
  const { licence, deleteAt, reason, publicBaseUrl } = input;
  const why =
    reason === 'lapsed'
      ? 'its payment was not made within two months of its deactivation'
      : 'its subscription ended more than two months ago';
  return renderEmail({
    subject: `Your ${product} licence will be deleted on ${formatEmailDate(deleteAt)}`,
    publicBaseUrl,
    blocks: [
      { kind: 'paragraph', text: 'Hello,' },
      {
        kind: 'paragraph',
        text: `your ${product} licence has been marked for deletion because ${why}. On ${formatEmailDate(deleteAt)} we delete the licence and its data; the key cannot be used again.`,
      },
      {
        kind: 'paragraph',
        text: `To keep using ${product}, choose a plan on our pricing page: you will receive a new licence key.`,
      },
      keyFacts(licence, [{ label: 'Deleted on', value: formatEmailDate(deleteAt) }]),
      { kind: 'button', label: 'See plans and pricing', url: `${publicBaseUrl}/pricing` },
      ...addressFooter(licence),
    ],
  });
}

export function cancellationConfirmedEmail(input: {
  licence: LicenceFacts;
  effectiveAt: Date;
  immediate: boolean;
  publicBaseUrl: string;
}): RenderedEmail {
  const { licence, effectiveAt, immediate, publicBaseUrl } = input;
  const when = immediate
    ? `It ended on ${formatEmailDate(effectiveAt)}; the licence key no longer works.`
    : `Your licence stays valid until the end of the billing period you paid for, ${formatEmailDate(effectiveAt)}. No further payments will be taken.`;
  return renderEmail({
    subject: `Your ${product} subscription is cancelled`,
    publicBaseUrl,
    blocks: [
      { kind: 'paragraph', text: 'Hello,' },
      {
        kind: 'paragraph',
        text: `this confirms the cancellation of your ${planName(licence.edition, licence.quantity)} subscription. ${when}`,
      },
      keyFacts(licence, [
        { label: immediate ? 'Ended' : 'Valid until', value: formatEmailDate(effectiveAt) },
      ]),
      ...(immediate
        ? []
        : [
            {
              kind: 'paragraph' as const,
              text: 'Changed your mind? You can undo the cancellation in the billing portal until then.',
            },
            portalStep(publicBaseUrl),
          ]),
      ...addressFooter(licence),
    ],
  });
}

/** The e-mail a lifecycle event causes, ready for the outbox; null for events without one. */
export function lifecycleEmail(
  event: LifecycleEvent,
  licence: LicenceFacts & { paidUntil: Date | null },
  publicBaseUrl: string,
): QueuedEmail | null {
  const to = licence.email;
  switch (event.kind) {
    case 'PaymentFailed':
      return { kind: 'payment-failed', to, ...paymentFailedEmail({ licence, publicBaseUrl }) };
    case 'Deactivated':
      return {
        kind: 'licence-deactivated',
        to,
        ...licenceDeactivatedEmail({
          licence,
          reactivateBy: event.reactivateBy,
          unpaidInvoice: event.unpaidInvoice,
          publicBaseUrl,
        }),
      };
    case 'Reactivated':
      return {
        kind: 'licence-reactivated',
        to,
        ...licenceReactivatedEmail({ licence, paidUntil: licence.paidUntil, publicBaseUrl }),
      };
    case 'DeletionScheduled':
      return {
        kind: 'licence-deletion-scheduled',
        to,
        ...deletionScheduledEmail({
          licence,
          deleteAt: event.deleteAt,
          reason: event.reason,
          publicBaseUrl,
        }),
      };
    case 'CancellationConfirmed':
      return {
        kind: 'cancellation-confirmed',
        to,
        ...cancellationConfirmedEmail({
          licence,
          effectiveAt: event.effectiveAt,
          immediate: event.immediate,
          publicBaseUrl,
        }),
      };
    case 'PlanChanged':
      // Product rules (docs/product-rules.md#behaviour) names no notice for a plan change (decision 090); the portal confirms it.
      return null;
  }
}
