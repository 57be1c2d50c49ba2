import { planName, type Edition } from '#shared/pricing/index.ts';
import { siteConfig } from '#shared/site-config.ts';
import {
  formatEmailDate,
  renderEmail,
  type RenderedEmail,
} from '#server/platform/email/render-email.ts';

/**
 * The reminders of an unpaid invoice (decision 144): on the due date and a week later, each
 * with the invoice's own page (pay there, or download the PDF) and the suspension date.
 */
export function invoiceReminderEmail(input: {
  stage: number;
  invoice: { number: string; dueAt: Date; url: string };
  licence: { edition: Edition; quantity: number; keyHint: string };
  suspendOn: Date;
  publicBaseUrl: string;
}): RenderedEmail {
  const { invoice, licence, suspendOn, publicBaseUrl } = input;
  const product = siteConfig.productName;
  const opening =
    input.stage === 0
      ? `invoice ${invoice.number} for your ${product} subscription is due today.`
      : `invoice ${invoice.number} for your ${product} subscription was due on ${formatEmailDate(invoice.dueAt)} and is still open.`;
  return renderEmail({
    subject:
      input.stage === 0
        ? `Your ${product} invoice ${invoice.number} is due today`
        : `Reminder: your ${product} invoice ${invoice.number} is overdue`,
    publicBaseUrl,
    blocks: [
      { kind: 'paragraph', text: 'Hello,' },
      { kind: 'paragraph', text: opening },
      {
        kind: 'paragraph',
        text: `Please pay it by ${formatEmailDate(suspendOn)}: if it is still open then, the licence is suspended until the payment arrives. If you have paid already, thank you, and please ignore this e-mail.`,
      },
      {
        kind: 'facts',
        items: [
          { label: 'Invoice', value: invoice.number },
          { label: 'Due date', value: formatEmailDate(invoice.dueAt) },
          { label: 'Licence', value: planName(licence.edition, licence.quantity) },
          { label: 'Licence key', value: `ends in ${licence.keyHint}` },
        ],
      },
      { kind: 'button', label: 'View and pay the invoice', url: invoice.url },
    ],
  });
}
