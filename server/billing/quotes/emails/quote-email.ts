import { renderEmail, type RenderedEmail } from '#server/platform/email/render-email.ts';
import { visitorTextForEmail } from '#server/platform/email/visitor-text.ts';
import { formatCents } from '#shared/pricing/index.ts';
import { siteConfig } from '#shared/site-config.ts';
import { quoteTotals, type QuoteDocument } from '../quote-document.ts';

/**
 * The quote as an e-mail to whoever asked for it: the figures, and links to the PDF and to the
 * accept page (decision 142); the PDF is also attached (decision 181).
 */
export function quoteEmail(input: {
  document: QuoteDocument;
  downloadUrl: string;
  acceptUrl: string;
  publicBaseUrl: string;
}): RenderedEmail {
  const { document, downloadUrl, acceptUrl, publicBaseUrl } = input;
  const { currency } = document.plan;
  const totals = quoteTotals(document);
  // Typed by whoever asked, for an address nobody confirmed: echoed only without links (decision 159).
  const company = visitorTextForEmail(document.buyer.companyName);
  const purchaseOrder = visitorTextForEmail(document.buyer.purchaseOrder);
  return renderEmail({
    subject: `Your ${siteConfig.productName} quote ${document.number}`,
    publicBaseUrl,
    blocks: [
      { kind: 'heading', text: `Quote ${document.number}` },
      {
        kind: 'paragraph',
        text: `Here is the quote you asked for on our pricing page${company ? ` for ${company}` : ''}. It is valid until ${document.validUntil}.`,
      },
      {
        kind: 'facts',
        items: [
          { label: 'Plan', value: document.plan.name },
          ...totals.lines.map((line) => ({
            label: line.label,
            value: line.cents === null ? '' : formatCents(line.cents, currency),
          })),
          ...(document.yearlySavingCents !== undefined
            ? [
                {
                  label: 'Yearly saving',
                  value: formatCents(document.yearlySavingCents, currency),
                },
              ]
            : []),
          ...(purchaseOrder ? [{ label: 'Purchase order', value: purchaseOrder }] : []),
        ],
      },
      ...(totals.note ? [{ kind: 'note' as const, text: totals.note }] : []),
      { kind: 'button', label: 'Download the quote (PDF)', url: downloadUrl },
      {
        kind: 'paragraph',
        text: 'To accept the quote, open it on our site and buy the plan it names at its price.',
        link: { label: 'Accept this quote', url: acceptUrl },
      },
      {
        kind: 'note',
        text: `Questions about the quote? Reply to ${siteConfig.salesEmail}.`,
      },
    ],
  });
}
