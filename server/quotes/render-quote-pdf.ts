import { readFileSync } from 'node:fs';
import PDFDocument from 'pdfkit';
import { formatCents } from '#shared/pricing/index.ts';
import { siteConfig } from '#shared/site-config.ts';
import type { QuoteDocument } from './quote-document.ts';

/** DejaVu Sans (Bitstream Vera licence, fonts/LICENSE-DejaVu.txt): any name or address prints. */
const fonts = {
  regular: readFileSync(new URL('./fonts/DejaVuSans.ttf', import.meta.url)),
  bold: readFileSync(new URL('./fonts/DejaVuSans-Bold.ttf', import.meta.url)),
};

/** The site's design tokens (app/styles, ../shared/DESIGN.md) in print. */
const colors = {
  navy: '#0b1b33',
  muted: '#475569',
  accent: '#0f766e',
  accentBright: '#2dd4bf',
  tint: '#e6f6f4',
  border: '#d8dee8',
  surfaceMuted: '#f4f6f9',
};

const page = { width: 595.28, height: 841.89, margin: 56 };
const contentWidth = page.width - 2 * page.margin;

type Doc = InstanceType<typeof PDFDocument>;

/** Drawing that carries no meaning (rules, tints, the logo's shapes): hidden from readers. */
function decoration(doc: Doc, draw: () => void): void {
  doc.markContent('Artifact');
  draw();
  doc.endMarkedContent();
}

function logo(doc: Doc, x: number, y: number): void {
  decoration(doc, () => {
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
    doc.moveTo(17.5, 21.5).lineTo(23.5, 21.5).stroke('#ffffff');
    doc.restore();
  });
}

interface Cell {
  text: string;
  detail?: string;
  align: 'left' | 'right';
  width: number;
}

/**
 * The quote as a one-page A4 PDF: letterhead, buyer and quote facts, the priced lines, total and
 * tax note, how to accept, and the seller's legal line. Tagged (headings, paragraphs, a table),
 * in English, titled with its number; `acceptUrl` is left out where no link is at hand (the
 * operator's copy).
 */
export function renderQuotePdf(document: QuoteDocument, acceptUrl?: string): Promise<Buffer> {
  const title = `Quote ${document.number}`;
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: page.margin, bottom: page.margin, left: page.margin, right: page.margin },
    pdfVersion: '1.7',
    tagged: true,
    lang: 'en',
    displayTitle: true,
    autoFirstPage: true,
    info: {
      Title: title,
      Author: document.seller.name,
      Subject: `${document.plan.name} for ${document.buyer.companyName}`,
      Creator: `${siteConfig.productName} website`,
      CreationDate: new Date(`${document.quoteDate}T00:00:00Z`),
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('Sans', fonts.regular);
  doc.registerFont('Sans-Bold', fonts.bold);

  const root = doc.struct('Document');
  doc.addStructure(root);
  const add = (type: string, draw: () => void) => root.add(doc.struct(type, {}, draw));
  const currency = document.plan.currency;
  const money = (cents: number) => formatCents(cents, currency);
  const left = page.margin;
  const right = page.width - page.margin;

  // Letterhead: the mark and name on the left, the seller's address on the right.
  decoration(doc, () => doc.rect(0, 0, page.width, 6).fill(colors.navy));
  logo(doc, left, 40);
  add('P', () =>
    doc
      .font('Sans-Bold')
      .fontSize(17)
      .fillColor(colors.navy)
      .text(siteConfig.productName, left + 34, 44, {
        lineBreak: false,
      }),
  );
  const sellerLines = [
    document.seller.name,
    ...document.seller.addressLines,
    `${document.seller.email} · ${document.seller.website}`,
  ];
  add('P', () => {
    doc.font('Sans').fontSize(8).fillColor(colors.muted);
    doc.text(sellerLines.join('\n'), left, 38, { width: contentWidth, align: 'right', lineGap: 1 });
  });
  decoration(doc, () =>
    doc.moveTo(left, 100).lineTo(right, 100).lineWidth(1).stroke(colors.accent),
  );

  // Title and the quote's facts.
  add('H1', () =>
    doc
      .font('Sans-Bold')
      .fontSize(24)
      .fillColor(colors.navy)
      .text('Quote', left, 122, { lineBreak: false }),
  );
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
    const item = doc.struct('LI');
    factList.add(item);
    item.add(
      doc.struct('Lbl', {}, () =>
        doc.font('Sans').fontSize(9).fillColor(colors.muted).text(`${label}:`, factsX, factsY, {
          width: 90,
        }),
      ),
    );
    item.add(
      doc.struct('LBody', {}, () =>
        doc
          .font('Sans-Bold')
          .fontSize(9)
          .fillColor(colors.navy)
          .text(value, factsX + 90, factsY, {
            width: factsWidth - 90,
            align: 'right',
          }),
      ),
    );
    item.end();
    factsY = doc.y + 3;
  }
  factList.end();

  // The buyer, and the plan the quote is for.
  let y = Math.max(factsY, 170) + 14;
  const columnWidth = contentWidth / 2 - 12;
  add('H2', () =>
    doc
      .font('Sans-Bold')
      .fontSize(9)
      .fillColor(colors.accent)
      .text('QUOTE FOR', left, y, { characterSpacing: 0.6 }),
  );
  const buyerLines = [
    ...document.buyer.addressLines,
    document.buyer.email,
    ...(document.buyer.vatId ? [`VAT ID: ${document.buyer.vatId}`] : []),
  ];
  let buyerBottom = 0;
  add('P', () => {
    doc.font('Sans-Bold').fontSize(11).fillColor(colors.navy);
    doc.text(document.buyer.companyName, left, y + 16, { width: columnWidth });
    doc.font('Sans').fontSize(9.5).fillColor(colors.navy);
    doc.text(buyerLines.join('\n'), { width: columnWidth, lineGap: 1.5 });
    buyerBottom = doc.y;
  });
  const planX = left + contentWidth / 2 + 12;
  add('H2', () =>
    doc
      .font('Sans-Bold')
      .fontSize(9)
      .fillColor(colors.accent)
      .text('PLAN', planX, y, { characterSpacing: 0.6 }),
  );
  let planBottom = 0;
  add('P', () => {
    doc.font('Sans-Bold').fontSize(11).fillColor(colors.navy);
    doc.text(document.plan.name, planX, y + 16, { width: columnWidth });
    doc.font('Sans').fontSize(9.5).fillColor(colors.navy);
    doc.text([`Billed ${document.plan.billingPeriod}, in ${currency}`, document.term].join('\n'), {
      width: columnWidth,
      lineGap: 1.5,
    });
    planBottom = doc.y;
  });

  // The priced lines.
  y = Math.max(buyerBottom, planBottom) + 22;
  const widths = [contentWidth - 40 - 95 - 95, 40, 95, 95];
  const headers: Cell[] = [
    { text: 'Description', align: 'left', width: widths[0] ?? 0 },
    { text: 'Qty', align: 'right', width: widths[1] ?? 0 },
    { text: 'Unit price', align: 'right', width: widths[2] ?? 0 },
    { text: 'Amount', align: 'right', width: widths[3] ?? 0 },
  ];
  const table = doc.struct('Table');
  root.add(table);
  const pad = 8;
  const row = (cells: Cell[], header: boolean, top: number): number => {
    const tr = doc.struct('TR');
    table.add(tr);
    // Measure first, so the tint and rules can be drawn behind the text.
    let height = 0;
    for (const cell of cells) {
      doc.font(header ? 'Sans-Bold' : 'Sans-Bold').fontSize(header ? 8.5 : 9.5);
      let h = doc.heightOfString(cell.text, { width: cell.width - 2 * pad });
      if (cell.detail) {
        doc.font('Sans').fontSize(8.5);
        h += 2 + doc.heightOfString(cell.detail, { width: cell.width - 2 * pad });
      }
      height = Math.max(height, h);
    }
    height += 2 * pad;
    decoration(doc, () => {
      if (header) doc.rect(left, top, contentWidth, height).fill(colors.tint);
      doc
        .moveTo(left, top + height)
        .lineTo(right, top + height)
        .lineWidth(0.75)
        .stroke(colors.border);
    });
    let x = left;
    for (const cell of cells) {
      const cellX = x;
      tr.add(
        doc.struct(header ? 'TH' : 'TD', {}, () => {
          doc
            .font('Sans-Bold')
            .fontSize(header ? 8.5 : 9.5)
            .fillColor(header ? colors.accent : colors.navy)
            .text(cell.text, cellX + pad, top + pad, {
              width: cell.width - 2 * pad,
              align: cell.align,
            });
          if (cell.detail) {
            doc
              .font('Sans')
              .fontSize(8.5)
              .fillColor(colors.muted)
              .text(cell.detail, cellX + pad, doc.y + 2, {
                width: cell.width - 2 * pad,
                align: cell.align,
              });
          }
        }),
      );
      x += cell.width;
    }
    tr.end();
    return top + height;
  };
  y = row(headers, true, y);
  for (const line of document.lines) {
    y = row(
      [
        { text: line.description, detail: line.detail, align: 'left', width: widths[0] ?? 0 },
        { text: String(line.quantity), align: 'right', width: widths[1] ?? 0 },
        { text: money(line.unitCents), align: 'right', width: widths[2] ?? 0 },
        { text: money(line.amountCents), align: 'right', width: widths[3] ?? 0 },
      ],
      false,
      y,
    );
  }
  table.end();

  // Total, saving and tax.
  y += 12;
  const totalsX = left + contentWidth * 0.45;
  const totalsWidth = right - totalsX;
  decoration(doc, () => doc.roundedRect(totalsX, y, totalsWidth, 34, 6).fill(colors.surfaceMuted));
  add('P', () => {
    doc.font('Sans-Bold').fontSize(11).fillColor(colors.navy);
    doc.text(`Total (net) ${document.period}`, totalsX + 12, y + 11, { lineBreak: false });
    doc.text(money(document.totalCents), totalsX, y + 11, {
      width: totalsWidth - 12,
      align: 'right',
    });
  });
  y += 42;
  if (document.tax.kind === 'local-tax') {
    add('P', () =>
      doc
        .font('Sans-Bold')
        .fontSize(9.5)
        .fillColor(colors.navy)
        .text('+ local tax', totalsX, y, {
          width: totalsWidth - 12,
          align: 'right',
        }),
    );
    y = doc.y + 4;
  }
  if (document.yearlySavingCents !== undefined) {
    add('P', () =>
      doc
        .font('Sans')
        .fontSize(9.5)
        .fillColor(colors.accent)
        .text(
          `Billed yearly, you save ${money(document.yearlySavingCents ?? 0)} compared with 12 monthly payments.`,
          left,
          y,
          { width: contentWidth - 12, align: 'right' },
        ),
    );
    y = doc.y + 4;
  }

  // Notes.
  y += 14;
  add('H2', () =>
    doc.font('Sans-Bold').fontSize(12).fillColor(colors.navy).text('Terms of this quote', left, y),
  );
  const notes = [
    document.tax.note,
    `Prices are in ${currency} and hold until ${document.validUntil}. Fees are billed in advance and are not refundable; the licence is granted under the ${siteConfig.productName} End User License Agreement.`,
  ];
  const noteList = doc.struct('L');
  root.add(noteList);
  doc.moveDown(0.4);
  for (const note of notes) {
    const item = doc.struct('LI');
    noteList.add(item);
    const itemY = doc.y;
    item.add(
      doc.struct('Lbl', {}, () =>
        doc.font('Sans').fontSize(9.5).fillColor(colors.accent).text('•', left, itemY),
      ),
    );
    item.add(
      doc.struct('LBody', {}, () =>
        doc
          .font('Sans')
          .fontSize(9.5)
          .fillColor(colors.navy)
          .text(note, left + 12, itemY, {
            width: contentWidth - 12,
            lineGap: 1.5,
          }),
      ),
    );
    item.end();
    doc.moveDown(0.3);
  }
  noteList.end();

  // How to accept.
  y = doc.y + 12;
  add('H2', () =>
    doc.font('Sans-Bold').fontSize(12).fillColor(colors.navy).text('How to accept', left, y),
  );
  add('P', () => {
    doc.font('Sans').fontSize(9.5).fillColor(colors.navy);
    doc.text(
      `Open the link below by ${document.validUntil} to see this quote on our site and buy the plan it names at its price, by card or, for yearly billing, by invoice (net 30) with your purchase-order reference. Questions? Write to ${document.seller.email} and quote ${document.number}.`,
      left,
      doc.y + 4,
      { width: contentWidth, lineGap: 1.5 },
    );
  });
  if (acceptUrl) {
    add('Link', () =>
      doc
        .font('Sans-Bold')
        .fontSize(10)
        .fillColor(colors.accent)
        .text('Accept this quote', left, doc.y + 6, {
          link: acceptUrl,
          underline: true,
          continued: false,
        }),
    );
    add('P', () =>
      doc
        .font('Sans')
        .fontSize(7.5)
        .fillColor(colors.muted)
        .text(acceptUrl, left, doc.y + 2, {
          width: contentWidth,
        }),
    );
  } else {
    add('P', () =>
      doc
        .font('Sans')
        .fontSize(9.5)
        .fillColor(colors.navy)
        .text(
          'Use the "Accept this quote" link in the e-mail that came with this quote.',
          left,
          doc.y + 6,
        ),
    );
  }

  // The seller's legal line, at the foot of the page.
  const footerY = page.height - page.margin + 8;
  decoration(doc, () =>
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
  add('P', () =>
    doc.font('Sans').fontSize(7).fillColor(colors.muted).text(legal, left, footerY, {
      width: contentWidth,
      align: 'center',
      lineGap: 1,
    }),
  );

  root.end();
  doc.end();
  return done;
}
