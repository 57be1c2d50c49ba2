import { tableRow, type TableCell, type TableLook } from '#server/platform/pdf/pdf-table.ts';
import {
  a4,
  artifact,
  createTaggedPdf,
  tagged,
  taggedListItem,
  taggedText,
  applyStyle,
  type PdfKitDocument,
  type TextStyle,
} from '#server/platform/pdf/tagged-pdf.ts';
import { color } from '#shared/design-tokens.ts';
import { formatCents } from '#shared/pricing/index.ts';
import { siteConfig } from '#shared/site-config.ts';
import type { PaymentDocument } from './payment-document.ts';

/** The site's design tokens (shared/design-tokens.ts, decision 172) in print. */
const colors = {
  navy: color.navy,
  muted: color.textMuted,
  accent: color.accent,
  accentBright: color.accentBright,
  tint: color.accentTint,
  border: color.border,
  surfaceMuted: color.surfaceMuted,
  onDark: color.onDark,
};

const styles = {
  wordmark: { font: 'bold', size: 17, color: colors.navy },
  seller: { font: 'regular', size: 8, color: colors.muted },
  title: { font: 'bold', size: 24, color: colors.navy },
  factLabel: { font: 'regular', size: 9, color: colors.muted },
  factValue: { font: 'bold', size: 9, color: colors.navy },
  label: { font: 'bold', size: 9, color: colors.accent },
  name: { font: 'bold', size: 11, color: colors.navy },
  heading: { font: 'bold', size: 12, color: colors.navy },
  body: { font: 'regular', size: 9.5, color: colors.navy },
  strong: { font: 'bold', size: 9.5, color: colors.navy },
  note: { font: 'regular', size: 9.5, color: colors.accent },
  link: { font: 'bold', size: 10, color: colors.accent },
  url: { font: 'regular', size: 7.5, color: colors.muted },
  legal: { font: 'regular', size: 7, color: colors.muted },
} satisfies Record<string, TextStyle>;

const page = { ...a4, margin: 56 };
const contentWidth = page.width - 2 * page.margin;
const left = page.margin;
const right = page.width - page.margin;

/** The priced lines' table: accent-tint header, a rule under each row. */
const tableLook: TableLook = {
  left,
  width: contentWidth,
  pad: 8,
  head: { font: 'bold', size: 8.5, color: colors.accent },
  body: { font: 'bold', size: 9.5, color: colors.navy },
  detail: { font: 'regular', size: 8.5, color: colors.muted },
  headFill: colors.tint,
  rule: colors.border,
};

function logo(doc: PdfKitDocument, x: number, y: number): void {
  artifact(doc, () => {
    const s = 26 / 32;
    doc.save().translate(x, y).scale(s);
    doc.roundedRect(0, 0, 32, 32, 8).fill(colors.navy);
    doc
      .lineWidth(3)
      .lineCap('round')
      .lineJoin('round')
      .moveTo(9, 10.5)
      .lineTo(15, 16)
      .lineTo(9, 21.5)
      .stroke(colors.accentBright);
    doc.moveTo(17.5, 21.5).lineTo(23.5, 21.5).stroke(colors.onDark);
    doc.restore();
  });
}

/**
 * An invoice or receipt as a one-page A4 PDF (decision 180), drawn with the quote's kit
 * (decision 165): letterhead, number and dates, seller and buyer, the lines, net, VAT and gross
 * from the stored document (never recomputed), how it was or is to be paid, the tax note and the
 * seller's legal line.
 */
export function renderPaymentDocumentPdf(document: PaymentDocument): Promise<Buffer> {
  const receipt = document.kind === 'receipt';
  const title = receipt ? 'Receipt' : 'Invoice';
  const pdf = createTaggedPdf({
    title: `${title} ${document.number}`,
    author: document.seller.name,
    subject: document.lines.map((line) => line.description).join('; '),
    creator: `${siteConfig.productName} website`,
    date: new Date(`${document.issuedOn}T00:00:00Z`),
    margins: { top: page.margin, bottom: page.margin, left: page.margin, right: page.margin },
  });
  const { doc, root } = pdf;
  const money = (minor: number) => formatCents(minor, document.currency);

  artifact(doc, () => doc.rect(0, 0, page.width, 6).fill(colors.navy));
  logo(doc, left, 40);
  taggedText(doc, root, 'P', siteConfig.productName, styles.wordmark, {
    x: left + 34,
    y: 44,
    lineBreak: false,
  });
  const sellerLines = [
    document.seller.name,
    ...document.seller.addressLines,
    `VAT ID ${document.seller.vatId}`,
    `${document.seller.email} · ${document.seller.website}`,
  ];
  taggedText(doc, root, 'P', sellerLines.join('\n'), styles.seller, {
    x: left,
    y: 34,
    width: contentWidth,
    align: 'right',
    lineGap: 1,
  });
  artifact(doc, () => doc.moveTo(left, 100).lineTo(right, 100).lineWidth(1).stroke(colors.accent));

  taggedText(doc, root, 'H1', title, styles.title, { x: left, y: 122, lineBreak: false });
  const payment = document.payment;
  const facts: Array<[string, string]> = [
    [`${title} number`, document.number],
    ['Date', document.issuedOn],
    ...(payment.method === 'bank-transfer'
      ? ([['Due date', payment.dueOn]] as Array<[string, string]>)
      : ([['Paid on', payment.paidOn]] as Array<[string, string]>)),
    ...(document.purchaseOrder
      ? ([['Purchase order', document.purchaseOrder]] as Array<[string, string]>)
      : []),
    ...(document.quoteReference
      ? ([['Quote', document.quoteReference]] as Array<[string, string]>)
      : []),
  ];
  const factsX = left + contentWidth * 0.55;
  const factsWidth = right - factsX;
  let factsY = 124;
  const factList = doc.struct('L');
  root.add(factList);
  for (const [label, value] of facts) {
    taggedListItem(
      doc,
      factList,
      () =>
        doc.text(`${label}:`, factsX, factsY, { ...applyStyle(doc, styles.factLabel), width: 90 }),
      () =>
        doc.text(value, factsX + 90, factsY, {
          ...applyStyle(doc, styles.factValue),
          width: factsWidth - 90,
          align: 'right',
        }),
    );
    factsY = doc.y + 3;
  }
  factList.end();

  let y = Math.max(factsY, 170) + 14;
  const columnWidth = contentWidth / 2 - 12;
  taggedText(doc, root, 'H2', 'BILLED TO', styles.label, { x: left, y, characterSpacing: 0.6 });
  const buyerLines = [
    ...document.buyer.addressLines,
    ...(document.buyer.addressLines.includes(document.buyer.country)
      ? []
      : [`Country: ${document.buyer.country}`]),
    document.buyer.email,
    ...(document.buyer.vatId ? [`VAT ID: ${document.buyer.vatId}`] : []),
  ];
  tagged(doc, root, 'P', () => {
    doc.text(document.buyer.companyName ?? document.buyer.email, left, y + 16, {
      ...applyStyle(doc, styles.name),
      width: columnWidth,
    });
    doc.text(buyerLines.join('\n'), {
      ...applyStyle(doc, styles.body),
      width: columnWidth,
      lineGap: 1.5,
    });
  });
  y = doc.y + 22;

  const widths = [contentWidth - 40 - 95 - 95, 40, 95, 95];
  const headers: TableCell[] = [
    { text: 'Description', align: 'left', width: widths[0] ?? 0 },
    { text: 'Qty', align: 'right', width: widths[1] ?? 0 },
    { text: 'Unit price (net)', align: 'right', width: widths[2] ?? 0 },
    { text: 'Amount (net)', align: 'right', width: widths[3] ?? 0 },
  ];
  const table = doc.struct('Table');
  root.add(table);
  y = tableRow(doc, table, headers, true, y, tableLook);
  for (const line of document.lines) {
    y = tableRow(
      doc,
      table,
      [
        { text: line.description, detail: line.detail, align: 'left', width: widths[0] ?? 0 },
        { text: String(line.quantity), align: 'right', width: widths[1] ?? 0 },
        { text: money(line.unitMinor), align: 'right', width: widths[2] ?? 0 },
        { text: money(line.amountMinor), align: 'right', width: widths[3] ?? 0 },
      ],
      false,
      y,
      tableLook,
    );
  }
  table.end();

  // Net, VAT and gross, as stored when the document was issued.
  y += 12;
  const totalsX = left + contentWidth * 0.45;
  const totalsWidth = right - totalsX;
  const totals = doc.struct('Table');
  root.add(totals);
  const totalRows: Array<[string, string]> = [
    ['Net', money(document.netMinor)],
    [document.vat.label, money(document.vatMinor)],
  ];
  for (const [label, value] of totalRows) {
    y = tableRow(
      doc,
      totals,
      [
        { text: label, align: 'left', width: totalsWidth - 110 },
        { text: value, align: 'right', width: 110 },
      ],
      false,
      y,
      { ...tableLook, left: totalsX, width: totalsWidth },
    );
  }
  totals.end();
  y += 6;
  artifact(doc, () => doc.roundedRect(totalsX, y, totalsWidth, 34, 6).fill(colors.surfaceMuted));
  tagged(doc, root, 'P', () => {
    applyStyle(doc, styles.name);
    doc.text(receipt ? 'Total paid' : 'Total due', totalsX + 12, y + 11, { lineBreak: false });
    doc.text(money(document.grossMinor), totalsX, y + 11, {
      width: totalsWidth - 12,
      align: 'right',
    });
  });
  y += 50;

  taggedText(doc, root, 'H2', receipt ? 'Payment' : 'How to pay', styles.heading, { x: left, y });
  const notes = [
    payment.method === 'card'
      ? `Paid in full by card on ${payment.paidOn}. Nothing is left to pay.`
      : payment.paidOn
        ? `Paid in full by bank transfer on ${payment.paidOn}.`
        : `Please pay ${money(document.grossMinor)} by bank transfer by ${payment.dueOn}, quoting ${document.number}${document.purchaseOrder ? ` and your purchase order ${document.purchaseOrder}` : ''}. Bank details and questions: ${document.seller.email}.`,
    ...(document.vat.note ? [document.vat.note] : []),
    `The licence is granted under the ${siteConfig.productName} End User License Agreement.`,
  ];
  const noteList = doc.struct('L');
  root.add(noteList);
  doc.moveDown(0.4);
  for (const note of notes) {
    const itemY = doc.y;
    taggedListItem(
      doc,
      noteList,
      () => doc.text('•', left, itemY, applyStyle(doc, styles.note)),
      () =>
        doc.text(note, left + 12, itemY, {
          ...applyStyle(doc, styles.body),
          width: contentWidth - 12,
          lineGap: 1.5,
        }),
    );
    doc.moveDown(0.3);
  }
  noteList.end();

  const footerY = page.height - page.margin + 8;
  artifact(doc, () =>
    doc
      .moveTo(left, footerY - 10)
      .lineTo(right, footerY - 10)
      .lineWidth(0.75)
      .stroke(colors.border),
  );
  const legal = [
    `${document.seller.name} · ${document.seller.addressLines.join(', ')}`,
    `Managing director: ${document.seller.managingDirector} · ${document.seller.register} · VAT ID ${document.seller.vatId} · ${document.seller.phone}`,
  ].join('\n');
  doc.page.margins.bottom = 0;
  taggedText(doc, root, 'P', legal, styles.legal, {
    x: left,
    y: footerY,
    width: contentWidth,
    align: 'center',
    lineGap: 1,
  });

  return pdf.finish();
}
