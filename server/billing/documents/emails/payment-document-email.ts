import { formatCents } from '#shared/pricing/index.ts';
import { siteConfig } from '#shared/site-config.ts';
import { renderEmail, type RenderedEmail } from '#server/platform/email/render-email.ts';
import { documentLinkLabel, type PaymentDocument } from '../payment-document.ts';

/**
 * A payment's invoice or receipt, on its own (a renewal; the first payment's rides in the
 * licence e-mail): the figures and the signed link to the PDF (decision 180).
 */
export function paymentDocumentEmail(input: {
  document: PaymentDocument;
  url: string;
  publicBaseUrl: string;
}): RenderedEmail {
  const { document, url, publicBaseUrl } = input;
  const money = (minor: number) => formatCents(minor, document.currency);
  const receipt = document.kind === 'receipt';
  const noun = receipt ? 'receipt' : 'invoice';
  return renderEmail({
    subject: `Your ${siteConfig.productName} ${noun} ${document.number}`,
    publicBaseUrl,
    blocks: [
      { kind: 'heading', text: `${receipt ? 'Receipt' : 'Invoice'} ${document.number}` },
      {
        kind: 'paragraph',
        text: receipt
          ? 'Thank you for your payment. Here is its receipt, to file with your accounts.'
          : `Here is your invoice. Please pay it by ${document.payment.method === 'bank-transfer' ? document.payment.dueOn : document.issuedOn}.`,
      },
      {
        kind: 'facts',
        items: [
          { label: 'For', value: document.lines.map((line) => line.description).join('; ') },
          { label: 'Net', value: money(document.netMinor) },
          { label: document.vat.label, value: money(document.vatMinor) },
          { label: 'Total', value: money(document.grossMinor) },
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
