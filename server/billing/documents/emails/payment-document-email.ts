import { formatCents } from '#shared/pricing/index.ts';
import { siteConfig } from '#shared/site-config.ts';
import { renderEmail, type RenderedEmail } from '#server/platform/email/render-email.ts';
import { documentLinkLabel, documentNoun, type PaymentDocument } from '../payment-document.ts';

/** The opening line of a document's e-mail: what it is for. */
function introOf(document: PaymentDocument): string {
  const payment = document.payment;
  switch (payment.method) {
    case 'card':
      return 'Thank you for your payment. Here is its receipt, to file with your accounts.';
    case 'bank-transfer':
      return `Here is your invoice. Please pay it by ${payment.dueOn}.`;
    case 'refund':
      return `Here is the credit note of the refund of ${document.credits?.number ?? 'your payment'}: ${formatCents(document.grossMinor, document.currency)} goes back to the ${payment.to === 'card' ? 'card it was paid with' : 'account it was paid from'}. File it with the ${document.credits?.kind ?? 'invoice'} it corrects.`;
    case 'cancellation':
      return `Invoice ${document.credits?.number ?? ''} is cancelled: ${formatCents(document.grossMinor, document.currency)} of it is no longer owed, and nothing is to be paid for it. Here is the credit note, to file with the invoice.`;
  }
}

/**
 * A payment's invoice or receipt, on its own (a renewal; the first payment's rides in the
 * licence e-mail), or a credit note (decision 220): the figures and the signed link to the PDF
 * (decision 180).
 */
export function paymentDocumentEmail(input: {
  document: PaymentDocument;
  url: string;
  publicBaseUrl: string;
}): RenderedEmail {
  const { document, url, publicBaseUrl } = input;
  const money = (minor: number) => formatCents(minor, document.currency);
  const noun = documentNoun(document.kind);
  const title = noun.charAt(0).toUpperCase() + noun.slice(1);
  const credit = document.kind === 'credit_note';
  return renderEmail({
    subject: `Your ${siteConfig.productName} ${noun} ${document.number}`,
    publicBaseUrl,
    blocks: [
      { kind: 'heading', text: `${title} ${document.number}` },
      { kind: 'paragraph', text: introOf(document) },
      {
        kind: 'facts',
        items: [
          ...(document.credits
            ? [
                {
                  label: `Corrects ${document.credits.kind}`,
                  value: `${document.credits.number} of ${document.credits.issuedOn}`,
                },
              ]
            : []),
          { label: 'For', value: document.lines.map((line) => line.description).join('; ') },
          { label: credit ? 'Net credited' : 'Net', value: money(document.netMinor) },
          {
            label: credit ? `${document.vat.label} reversed` : document.vat.label,
            value: money(document.vatMinor),
          },
          { label: credit ? 'Total credited' : 'Total', value: money(document.grossMinor) },
          ...(document.reason ? [{ label: 'Reason', value: document.reason }] : []),
        ],
      },
      { kind: 'button', label: documentLinkLabel({ ...document, url }), url },
      {
        kind: 'note',
        text: `Questions about it? Write to ${siteConfig.salesEmail} and quote ${document.number}.`,
      },
    ],
  });
}

/**
 * The confirmation that the money of an invoice arrived (decision 220): the buyer's accounts
 * payable sees it booked, with the invoice's link (its PDF now says paid).
 */
export function paymentReceivedEmail(input: {
  document: PaymentDocument;
  paidOn: string;
  url: string;
  publicBaseUrl: string;
}): RenderedEmail {
  const { document, url, publicBaseUrl } = input;
  const money = (minor: number) => formatCents(minor, document.currency);
  return renderEmail({
    subject: `Payment received for ${siteConfig.productName} invoice ${document.number}`,
    publicBaseUrl,
    blocks: [
      { kind: 'heading', text: `Payment received: invoice ${document.number}` },
      {
        kind: 'paragraph',
        text: `Thank you: we received ${money(document.grossMinor)} for invoice ${document.number} on ${input.paidOn}. The invoice is paid in full; nothing is left to pay.`,
      },
      {
        kind: 'facts',
        items: [
          { label: 'Invoice', value: `${document.number} of ${document.issuedOn}` },
          { label: 'For', value: document.lines.map((line) => line.description).join('; ') },
          { label: 'Net', value: money(document.netMinor) },
          { label: document.vat.label, value: money(document.vatMinor) },
          { label: 'Paid', value: money(document.grossMinor) },
          { label: 'Paid on', value: input.paidOn },
        ],
      },
      { kind: 'button', label: `Download invoice ${document.number} (PDF)`, url },
      {
        kind: 'note',
        text: `Questions about it? Write to ${siteConfig.salesEmail} and quote ${document.number}.`,
      },
    ],
  });
}
