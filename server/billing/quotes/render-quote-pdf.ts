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
import { quoteTotals, type QuoteDocument } from './quote-document.ts';

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
 * The quote as a one-page A4 PDF: letterhead, buyer and quote facts, the priced lines, total and
 * tax note, how to accept, and the seller's legal line. Tagged (headings, paragraphs, lists, a
 * table; decision 165's kit), titled with its number; `acceptUrl` is left out where no link is at
 * hand (the operator's copy).
 */
export function renderQuotePdf(document: QuoteDocument, acceptUrl?: string): Promise<Buffer> {
  const pdf = createTaggedPdf({
    title: `Quote ${document.number}`,
    author: document.seller.name,
    subject: `${document.plan.name} for ${document.buyer.companyName}`,
    creator: `${siteConfig.productName} website`,
    date: new Date(`${document.quoteDate}T00:00:00Z`),
    margins: { top: page.margin, bottom: page.margin, left: page.margin, right: page.margin },
  });
  const { doc, root } = pdf;
  const currency = document.plan.currency;
  const money = (cents: number) => formatCents(cents, currency);

  // Letterhead: the mark and name on the left, the seller's address on the right.
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
    `${document.seller.email} · ${document.seller.website}`,
  ];
  taggedText(doc, root, 'P', sellerLines.join('\n'), styles.seller, {
    x: left,
    y: 38,
    width: contentWidth,
    align: 'right',
    lineGap: 1,
  });
  artifact(doc, () => doc.moveTo(left, 100).lineTo(right, 100).lineWidth(1).stroke(colors.accent));

  // Title and the quote's facts.
  taggedText(doc, root, 'H1', 'Quote', styles.title, { x: left, y: 122, lineBreak: false });
  const facts: Array<[string, string]> = [
    ['Quote number', document.number],
    ['Date', document.quoteDate],
    ['Valid until', document.validUntil],
    ...(document.buyer.purchaseOrder
      ? ([['Purchase order', document.buyer.purchaseOrder]] as Array<[string, string]>)
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

  // The buyer, and the plan the quote is for.
  let y = Math.max(factsY, 170) + 14;
  const columnWidth = contentWidth / 2 - 12;
  const columnLabel = { characterSpacing: 0.6 };
  taggedText(doc, root, 'H2', 'QUOTE FOR', styles.label, { x: left, y, ...columnLabel });
  const buyerLines = [
    ...document.buyer.addressLines,
    document.buyer.email,
    ...(document.buyer.vatId ? [`VAT ID: ${document.buyer.vatId}`] : []),
  ];
  let buyerBottom = 0;
  tagged(doc, root, 'P', () => {
    doc.text(document.buyer.companyName, left, y + 16, {
      ...applyStyle(doc, styles.name),
      width: columnWidth,
    });
    doc.text(buyerLines.join('\n'), {
      ...applyStyle(doc, styles.body),
      width: columnWidth,
      lineGap: 1.5,
    });
    buyerBottom = doc.y;
  });
  const planX = left + contentWidth / 2 + 12;
  taggedText(doc, root, 'H2', 'PLAN', styles.label, { x: planX, y, ...columnLabel });
  let planBottom = 0;
  tagged(doc, root, 'P', () => {
    doc.text(document.plan.name, planX, y + 16, {
      ...applyStyle(doc, styles.name),
      width: columnWidth,
    });
    doc.text([`Billed ${document.plan.billingPeriod}, in ${currency}`, document.term].join('\n'), {
      ...applyStyle(doc, styles.body),
      width: columnWidth,
      lineGap: 1.5,
    });
    planBottom = doc.y;
  });

  // The priced lines.
  y = Math.max(buyerBottom, planBottom) + 22;
  const widths = [contentWidth - 40 - 95 - 95, 40, 95, 95];
  const headers: TableCell[] = [
    { text: 'Description', align: 'left', width: widths[0] ?? 0 },
    { text: 'Qty', align: 'right', width: widths[1] ?? 0 },
    { text: 'Unit price', align: 'right', width: widths[2] ?? 0 },
    { text: 'Amount', align: 'right', width: widths[3] ?? 0 },
  ];
  const table = doc.struct('Table');
  root.add(table);
  y = tableRow(doc, table, headers, true, y, tableLook);
  for (const line of document.lines) {
    const cells: TableCell[] = [
      { text: line.description, detail: line.detail, align: 'left', width: widths[0] ?? 0 },
      { text: String(line.quantity), align: 'right', width: widths[1] ?? 0 },
      { text: money(line.unitCents), align: 'right', width: widths[2] ?? 0 },
      { text: money(line.amountCents), align: 'right', width: widths[3] ?? 0 },
    ];
    y = tableRow(doc, table, cells, false, y, tableLook);
  }
  table.end();

  // Net, VAT and gross (or a version-1 quote's net total and "+ local tax").
  y += 12;
  const totalsX = left + contentWidth * 0.45;
  const totalsWidth = right - totalsX;
  const totals = quoteTotals(document);
  for (const line of totals.lines) {
    if (line.emphasis) {
      artifact(doc, () =>
        doc.roundedRect(totalsX, y, totalsWidth, 34, 6).fill(colors.surfaceMuted),
      );
    }
    const top = line.emphasis ? y + 11 : y;
    tagged(doc, root, 'P', () => {
      applyStyle(doc, line.emphasis ? styles.name : styles.body);
      doc.text(line.label, totalsX + 12, top, { lineBreak: false });
      if (line.cents !== null) {
        doc.text(money(line.cents), totalsX, top, { width: totalsWidth - 12, align: 'right' });
      }
    });
    y += line.emphasis ? 42 : 18;
  }
  if (document.yearlySavingCents !== undefined) {
    const saving = `Billed yearly, you save ${money(document.yearlySavingCents)} compared with 12 monthly payments.`;
    taggedText(doc, root, 'P', saving, styles.note, {
      x: left,
      y,
      width: contentWidth - 12,
      align: 'right',
    });
    y = doc.y + 4;
  }

  // Notes.
  y += 14;
  taggedText(doc, root, 'H2', 'Terms of this quote', styles.heading, { x: left, y });
  const notes = [
    ...(totals.note ? [totals.note] : []),
    `Prices are in ${currency} and hold until ${document.validUntil}. Fees are billed in advance and are not refundable; the licence is granted under the ${siteConfig.productName} End User License Agreement.`,
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

  // How to accept.
  y = doc.y + 12;
  taggedText(doc, root, 'H2', 'How to accept', styles.heading, { x: left, y });
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
      const options = applyStyle(doc, styles.body);
      doc.text(
        'Use the "Accept this quote" link in the e-mail that came with this quote.',
        left,
        doc.y + 6,
        options,
      );
    });
  }

  // The seller's legal line, at the foot of the page.
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
