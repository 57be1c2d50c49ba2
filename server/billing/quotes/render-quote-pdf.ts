import {
  contentWidth,
  documentStyles as styles,
  left,
  startCommercialDocument,
} from '#server/platform/pdf/commercial-document.ts';
import { linklessVisitorText } from '#server/platform/pdf/linkless-visitor-text.ts';
import { applyStyle, tagged } from '#server/platform/pdf/tagged-pdf.ts';
import { formatCents } from '#shared/pricing/index.ts';
import { siteConfig } from '#shared/site-config.ts';
import { quoteTotals, type QuoteDocument } from './quote-document.ts';

/**
 * The quote as a one-page A4 PDF in the commercial-document layout: letterhead, buyer and quote
 * facts, the priced lines, total and tax note, how to accept, and the seller's legal line. Tagged
 * (headings, paragraphs, lists, tables; decision 165's kit), titled with its number; `acceptUrl`
 * is left out where no link is at hand (the operator's copy).
 */
export function renderQuotePdf(document: QuoteDocument, acceptUrl?: string): Promise<Buffer> {
  const currency = document.plan.currency;
  const money = (cents: number) => formatCents(cents, currency);
  // The quote goes to an address typed in, not confirmed: what the visitor typed links nowhere.
  const companyName = linklessVisitorText(document.buyer.companyName);
  const purchaseOrder = document.buyer.purchaseOrder
    ? linklessVisitorText(document.buyer.purchaseOrder)
    : undefined;
  const pdf = startCommercialDocument({
    title: `Quote ${document.number}`,
    subject: `${document.plan.name} for ${companyName}`,
    date: new Date(`${document.quoteDate}T00:00:00Z`),
    productName: siteConfig.productName,
    seller: document.seller,
  });
  const { doc, root } = pdf;

  pdf.titleAndFacts('Quote', [
    ['Quote number', document.number],
    ['Date', document.quoteDate],
    ['Valid until', document.validUntil],
    ...(purchaseOrder ? ([['Purchase order', purchaseOrder]] as Array<[string, string]>) : []),
  ]);

  // The buyer, and the plan the quote is for.
  let y = pdf.parties([
    {
      label: 'QUOTE FOR',
      name: companyName,
      lines: [
        ...document.buyer.addressLines.map(linklessVisitorText),
        document.buyer.email,
        ...(document.buyer.vatId ? [`VAT ID: ${linklessVisitorText(document.buyer.vatId)}`] : []),
      ],
    },
    {
      label: 'PLAN',
      name: document.plan.name,
      lines: [`Billed ${document.plan.billingPeriod}, in ${currency}`, document.term],
    },
  ]);

  y = pdf.lines(
    y + 22,
    { unit: 'Unit price', amount: 'Amount' },
    document.lines.map((line) => ({
      description: line.description,
      detail: line.detail,
      quantity: line.quantity,
      unit: money(line.unitCents),
      amount: money(line.amountCents),
    })),
  );

  // Net, VAT and gross (or a version-1 quote's net total and "+ local tax").
  const totals = quoteTotals(document);
  y = pdf.totals(
    y + 12,
    totals.lines.map((line) => ({
      label: line.label,
      amount: line.cents === null ? null : money(line.cents),
      emphasis: line.emphasis,
    })),
  );
  if (document.yearlySavingCents !== undefined) {
    y = pdf.totalsNote(
      y,
      `Billed yearly, you save ${money(document.yearlySavingCents)} compared with 12 monthly payments.`,
    );
  }

  pdf.heading(y + 14, 'Terms of this quote');
  pdf.bullets([
    ...(totals.note ? [totals.note] : []),
    `Prices are in ${currency} and hold until ${document.validUntil}. Fees are billed in advance and are not refundable; the licence is granted under the ${siteConfig.productName} End User License Agreement.`,
  ]);

  // How to accept.
  pdf.heading(doc.y + 12, 'How to accept');
  tagged(doc, root, 'P', () => {
    const options = { ...applyStyle(doc, styles.body), width: contentWidth, lineGap: 1.5 };
    doc.text(
      `Open the link below by ${document.validUntil} to see this quote on our site and buy the plan it names at its price, by card or, for yearly billing, by invoice (net 30) with your purchase-order reference. Questions? Write to ${document.seller.email} and quote ${document.number}.`,
      left,
      doc.y + 4,
      options,
    );
  });
  if (acceptUrl) {
    tagged(doc, root, 'Link', () => {
      const options = { ...applyStyle(doc, styles.link), link: acceptUrl, underline: true };
      doc.text('Accept this quote', left, doc.y + 6, { ...options, continued: false });
    });
    tagged(doc, root, 'P', () => {
      const options = { ...applyStyle(doc, styles.url), width: contentWidth };
      doc.text(acceptUrl, left, doc.y + 2, options);
    });
  } else {
    tagged(doc, root, 'P', () => {
      doc.text(
        'Use the "Accept this quote" link in the e-mail that came with this quote.',
        left,
        doc.y + 6,
        applyStyle(doc, styles.body),
      );
    });
  }

  return pdf.finish();
}
