import { startCommercialDocument } from '#server/platform/pdf/commercial-document.ts';
import { countryNames, isCountryCode } from '#shared/countries.ts';
import { formatIban } from '#server/billing/bank-accounts.ts';
import { formatCents } from '#shared/pricing/index.ts';
import { siteConfig } from '#shared/site-config.ts';
import { addDays } from '#server/billing/calendar-date.ts';
import type { PaymentDocument } from './payment-document.ts';

/**
 * German VAT charged in another currency is also stated in euros (§ 14 (4) no. 8 with § 16 (6)
 * UStG; decision 221), at the rate the document froze when it was issued, naming the rate, its
 * source and its day. Null when the document charges no VAT or is in euros.
 */
export function euroVatStatement(document: PaymentDocument): string | null {
  if (document.currency === 'EUR' || document.vatMinor === 0 || document.eur === undefined) {
    return null;
  }
  const { eur } = document;
  if (eur === null) {
    return `VAT in EUR: not stated, as no ${document.currency} rate to the euro had been recorded when this document was issued.`;
  }
  const latest =
    eur.rateOn < addDays(document.issuedOn, -1) ? ', the latest recorded on the issue date' : '';
  const source = eur.source === 'ECB' ? 'ECB reference rate' : `rate (${eur.source})`;
  return `VAT in EUR: ${formatCents(eur.vatMinor, 'EUR')} at 1 EUR = ${eur.perEur} ${document.currency}, ${source} of ${eur.rateOn}${latest}.`;
}

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

  const euroVat = euroVatStatement(document);
  if (euroVat) y = pdf.totalsNote(y + 2, euroVat);

  if (credit) {
    pdf.heading(y + 8, 'What this credit note does');
    pdf.bullets(creditNoteBullets(document, money));
    return pdf.finish();
  }

  // The account and the one payment reference, the invoice's number (decision 218).
  const account = document.bankAccount;
  const bankLines = account
    ? [
        `Payment reference: ${document.number}`,
        `Account holder: ${account.holder}`,
        `IBAN: ${formatIban(account.iban)}`,
        `BIC: ${account.bic}`,
        `Bank: ${account.bank}`,
      ]
    : [];
  pdf.heading(y + 8, receipt ? 'Payment' : 'How to pay');
  pdf.bullets([
    payment.method === 'card'
      ? `Paid in full by card on ${payment.paidOn}. Nothing is left to pay.`
      : payment.method === 'bank-transfer' && payment.paidOn
        ? `Paid in full by bank transfer on ${payment.paidOn}.`
        : account && payment.method === 'bank-transfer'
          ? `Please pay ${money(document.grossMinor)} by bank transfer by ${payment.dueOn} to this account, quoting this payment reference:`
          : `Please pay ${money(document.grossMinor)} by bank transfer${payment.method === 'bank-transfer' ? ` by ${payment.dueOn}` : ''}, quoting ${document.number}. Bank details: ${document.seller.email}.`,
    ...bankLines,
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
