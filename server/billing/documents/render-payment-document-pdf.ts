import { startCommercialDocument } from '#server/platform/pdf/commercial-document.ts';
import { countryNames, isCountryCode } from '#shared/countries.ts';
import { formatCents } from '#shared/pricing/index.ts';
import { siteConfig } from '#shared/site-config.ts';
import type { PaymentDocument } from './payment-document.ts';

/**
 * An invoice, receipt or credit note as a one-page A4 PDF (decisions 180, 220) in the
 * commercial-document layout the quote uses: letterhead, number and dates, the buyer, the lines,
 * net, VAT and gross from the stored document (never recomputed), how it was or is to be paid (a
 * credit note: what it takes back of which invoice, and the VAT it reverses), the tax note and the
 * seller's legal line.
 */
export function renderPaymentDocumentPdf(document: PaymentDocument): Promise<Buffer> {
  const receipt = document.kind === 'receipt';
  const credit = document.kind === 'credit_note';
  const title = credit ? 'Credit note' : receipt ? 'Receipt' : 'Invoice';
  const money = (minor: number) => formatCents(minor, document.currency);
  const original = document.credits;
  const originalTitle = original?.kind === 'receipt' ? 'Receipt' : 'Invoice';
  const pdf = startCommercialDocument({
    title: `${title} ${document.number}`,
    subject: document.lines.map((line) => line.description).join('; '),
    date: new Date(`${document.issuedOn}T00:00:00Z`),
    productName: siteConfig.productName,
    seller: document.seller,
  });

  const payment = document.payment;
  pdf.titleAndFacts(title, [
    [`${title} number`, document.number],
    ['Date', document.issuedOn],
    ...(original
      ? ([
          [`Corrects ${originalTitle.toLowerCase()}`, original.number],
          [`${originalTitle} date`, original.issuedOn],
        ] as Array<[string, string]>)
      : payment.method === 'bank-transfer'
        ? ([['Due date', payment.dueOn]] as Array<[string, string]>)
        : payment.method === 'card'
          ? ([['Paid on', payment.paidOn]] as Array<[string, string]>)
          : []),
    ...(document.purchaseOrder
      ? ([['Purchase order', document.purchaseOrder]] as Array<[string, string]>)
      : []),
    ...(document.quoteReference
      ? ([['Quote', document.quoteReference]] as Array<[string, string]>)
      : []),
  ]);

  const { buyer } = document;
  const country = isCountryCode(buyer.country) ? countryNames[buyer.country] : buyer.country;
  let y = pdf.parties([
    {
      label: 'BILLED TO',
      name: buyer.companyName ?? buyer.email,
      lines: [
        // The country by name, as on the quote: a line that is its code is written out, and a
        // missing one is added. A buyer who gave no address (a card payment) gets none: the
        // country is then only the one taxed by default (decision 180), not a fact about them.
        ...buyer.addressLines.map((line) => (line === buyer.country ? country : line)),
        ...(buyer.addressLines.length === 0 ||
        buyer.addressLines.includes(buyer.country) ||
        buyer.addressLines.includes(country)
          ? []
          : [country]),
        // Without a company name the address heads the block: it is not written twice.
        ...(buyer.companyName ? [buyer.email] : []),
        ...(buyer.vatId ? [`VAT ID: ${buyer.vatId}`] : []),
      ],
    },
  ]);

  y = pdf.lines(
    y + 22,
    { unit: 'Unit price (net)', amount: 'Amount (net)' },
    document.lines.map((line) => ({
      description: line.description,
      detail: line.detail,
      quantity: line.quantity,
      unit: money(line.unitMinor),
      amount: money(line.amountMinor),
    })),
  );

  // Net, VAT and gross, as stored when the document was issued.
  y = pdf.totals(y + 12, [
    { label: 'Net', amount: money(document.netMinor) },
    { label: document.vat.label, amount: money(document.vatMinor) },
    {
      label: credit ? 'Total credited' : receipt ? 'Total paid' : 'Total due',
      amount: money(document.grossMinor),
      emphasis: true,
    },
  ]);

  if (credit) {
    pdf.heading(y + 8, 'What this credit note does');
    pdf.bullets(creditNoteBullets(document, money));
    return pdf.finish();
  }

  pdf.heading(y + 8, receipt ? 'Payment' : 'How to pay');
  pdf.bullets([
    payment.method === 'card'
      ? `Paid in full by card on ${payment.paidOn}. Nothing is left to pay.`
      : payment.method === 'bank-transfer' && payment.paidOn
        ? `Paid in full by bank transfer on ${payment.paidOn}.`
        : `Please pay ${money(document.grossMinor)} by bank transfer${payment.method === 'bank-transfer' ? ` by ${payment.dueOn}` : ''}, quoting ${document.number}${document.purchaseOrder ? ` and your purchase order ${document.purchaseOrder}` : ''}. Bank details and questions: ${document.seller.email}.`,
    ...(document.vat.note ? [document.vat.note] : []),
    `The licence is granted under the ${siteConfig.productName} End User License Agreement.`,
  ]);

  return pdf.finish();
}

/**
 * A credit note's explanation: the document it corrects, the VAT it reverses at that document's
 * rate, and what happens to the money (decision 220).
 */
function creditNoteBullets(document: PaymentDocument, money: (minor: number) => string): string[] {
  const original = document.credits;
  const noun = original?.kind === 'receipt' ? 'receipt' : 'invoice';
  const payment = document.payment;
  return [
    original
      ? `This credit note corrects ${noun} ${original.number} of ${original.issuedOn} (total ${money(original.grossMinor)}) by ${money(document.grossMinor)}.`
      : `This credit note credits ${money(document.grossMinor)}.`,
    document.vatMinor > 0
      ? `It reverses ${money(document.vatMinor)} of the ${document.vat.label} charged on ${original?.number ?? 'the original'} (net ${money(document.netMinor)}).`
      : `No VAT is reversed: ${original?.number ?? 'the original'} charged none (${document.vat.label}).`,
    payment.method === 'refund'
      ? `${money(document.grossMinor)} is refunded to the ${payment.to === 'card' ? 'card it was paid with' : 'account it was paid from'} on ${payment.refundedOn}.`
      : payment.method === 'cancellation'
        ? `${money(document.grossMinor)} of ${original?.number ?? 'the invoice'} is cancelled on ${payment.cancelledOn}: it is no longer owed, and nothing is to be paid for it.`
        : `${money(document.grossMinor)} is credited.`,
    ...(document.reason ? [`Reason: ${document.reason}`] : []),
    ...(document.vat.note ? [document.vat.note] : []),
    `Questions: ${document.seller.email}, quoting ${document.number}.`,
  ];
}
