import { color } from '#shared/design-tokens.ts';
import { tableRow, type TableCell, type TableLook } from './pdf-table.ts';
import {
  a4,
  applyStyle,
  artifact,
  createTaggedPdf,
  tagged,
  taggedListItem,
  taggedText,
  type PdfKitDocument,
  type PdfStruct,
  type TaggedPdf,
  type TextStyle,
} from './tagged-pdf.ts';

/**
 * One layout for the commercial documents (quotes, invoices, receipts; decisions 165, 180, 203):
 * letterhead, title and facts, the parties, the priced lines, the totals, bulleted notes and the
 * seller's legal line, on one A4 page, tagged. Each document says only what it shows; where it
 * goes on the page is decided here.
 */

/** The seller as a document prints it. */
export interface PrintedSeller {
  name: string;
  addressLines: string[];
  managingDirector: string;
  register: string;
  vatId: string;
  phone: string;
  email: string;
  website: string;
}

/** A party block: a small capital label, a name in bold, then lines. */
export interface PartyBlock {
  label: string;
  name: string;
  lines: string[];
}

/** A priced line, its amounts already written as money. */
export interface PrintedLine {
  description: string;
  detail?: string | undefined;
  quantity: number;
  unit: string;
  amount: string;
}

/** A totals row; the emphasised one (the total) sits in a tinted box. `amount: null` prints none. */
export interface TotalRow {
  label: string;
  amount: string | null;
  emphasis?: boolean;
}

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

/** The text styles of the layout, for what a document adds between its parts. */
export const documentStyles = {
  wordmark: { font: 'bold', size: 17, color: colors.navy },
  seller: { font: 'regular', size: 8, color: colors.muted },
  title: { font: 'bold', size: 24, color: colors.navy },
  factLabel: { font: 'regular', size: 9, color: colors.muted },
  factValue: { font: 'bold', size: 9, color: colors.navy },
  label: { font: 'bold', size: 9, color: colors.accent },
  name: { font: 'bold', size: 11, color: colors.navy },
  heading: { font: 'bold', size: 12, color: colors.navy },
  body: { font: 'regular', size: 9.5, color: colors.navy },
  note: { font: 'regular', size: 9.5, color: colors.accent },
  link: { font: 'bold', size: 10, color: colors.accent },
  url: { font: 'regular', size: 7.5, color: colors.muted },
  legal: { font: 'regular', size: 7, color: colors.muted },
} satisfies Record<string, TextStyle>;
const styles = documentStyles;

const page = { ...a4, margin: 56 };
export const contentWidth = page.width - 2 * page.margin;
export const left = page.margin;
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

export interface CommercialDocument {
  doc: PdfKitDocument;
  root: PdfStruct;
  /** The title (`H1`) and the document's facts (number, dates, references) beside it. */
  titleAndFacts(title: string, facts: Array<[label: string, value: string]>): void;
  /** One or two party blocks side by side (`H2` label, then a paragraph); returns their bottom. */
  parties(blocks: PartyBlock[]): number;
  /** The priced lines as a tagged table from `top`; returns its bottom. */
  lines(top: number, headers: { unit: string; amount: string }, lines: PrintedLine[]): number;
  /** The totals from `top`, right-aligned: plain rows as a table, the total in a box; returns the bottom. */
  totals(top: number, rows: TotalRow[]): number;
  /** A right-aligned line in the accent colour under the totals; returns its bottom. */
  totalsNote(top: number, text: string): number;
  /** A section heading (`H2`) at `top`. */
  heading(top: number, text: string): void;
  /** A bulleted list (`L`) below the current position. */
  bullets(items: string[]): void;
  /** The seller's legal line at the foot of the page; then the PDF, finished. */
  finish(): Promise<Buffer>;
}

/**
 * Starts a commercial document: the PDF with its metadata and the letterhead (mark, product name,
 * the seller's address, VAT ID and contact at the right).
 */
export function startCommercialDocument(setup: {
  title: string;
  subject: string;
  date: Date;
  productName: string;
  seller: PrintedSeller;
}): CommercialDocument {
  const { seller } = setup;
  const pdf: TaggedPdf = createTaggedPdf({
    title: setup.title,
    author: seller.name,
    subject: setup.subject,
    creator: `${setup.productName} website`,
    date: setup.date,
    margins: { top: page.margin, bottom: page.margin, left: page.margin, right: page.margin },
  });
  const { doc, root } = pdf;

  artifact(doc, () => doc.rect(0, 0, page.width, 6).fill(colors.navy));
  logo(doc, left, 40);
  taggedText(doc, root, 'P', setup.productName, styles.wordmark, {
    x: left + 34,
    y: 44,
    lineBreak: false,
  });
  const sellerLines = [
    seller.name,
    ...seller.addressLines,
    `VAT ID ${seller.vatId}`,
    `${seller.email} · ${seller.website}`,
  ];
  taggedText(doc, root, 'P', sellerLines.join('\n'), styles.seller, {
    x: left,
    y: 34,
    width: contentWidth,
    align: 'right',
    lineGap: 1,
  });
  artifact(doc, () => doc.moveTo(left, 100).lineTo(right, 100).lineWidth(1).stroke(colors.accent));

  let factsBottom = 170;

  const paragraphBlock = (block: PartyBlock, x: number, top: number, width: number): number => {
    taggedText(doc, root, 'H2', block.label, styles.label, { x, y: top, characterSpacing: 0.6 });
    let bottom = 0;
    tagged(doc, root, 'P', () => {
      doc.text(block.name, x, top + 16, { ...applyStyle(doc, styles.name), width });
      doc.text(block.lines.join('\n'), { ...applyStyle(doc, styles.body), width, lineGap: 1.5 });
      bottom = doc.y;
    });
    return bottom;
  };

  return {
    doc,
    root,

    titleAndFacts(title, facts) {
      taggedText(doc, root, 'H1', title, styles.title, { x: left, y: 122, lineBreak: false });
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
            doc.text(`${label}:`, factsX, factsY, {
              ...applyStyle(doc, styles.factLabel),
              width: 90,
            }),
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
      factsBottom = Math.max(factsY, 170);
    },

    parties(blocks) {
      const top = factsBottom + 14;
      const columnWidth = contentWidth / 2 - 12;
      let bottom = top;
      blocks.forEach((block, index) => {
        const x = index === 0 ? left : left + contentWidth / 2 + 12;
        bottom = Math.max(bottom, paragraphBlock(block, x, top, columnWidth));
      });
      return bottom;
    },

    lines(top, headers, lines) {
      const widths = [contentWidth - 40 - 95 - 95, 40, 95, 95] as const;
      const table = doc.struct('Table');
      root.add(table);
      const row = (cells: Array<Omit<TableCell, 'width'>>, header: boolean, y: number) =>
        tableRow(
          doc,
          table,
          cells.map((cell, index) => ({ ...cell, width: widths[index] ?? 0 })),
          header,
          y,
          tableLook,
        );
      let y = row(
        [
          { text: 'Description', align: 'left' },
          { text: 'Qty', align: 'right' },
          { text: headers.unit, align: 'right' },
          { text: headers.amount, align: 'right' },
        ],
        true,
        top,
      );
      for (const line of lines) {
        y = row(
          [
            { text: line.description, detail: line.detail, align: 'left' },
            { text: String(line.quantity), align: 'right' },
            { text: line.unit, align: 'right' },
            { text: line.amount, align: 'right' },
          ],
          false,
          y,
        );
      }
      table.end();
      return y;
    },

    totals(top, rows) {
      // Wide enough for the longest VAT label on one line ("VAT 0 % (not taxable in Germany)").
      const x = left + contentWidth * 0.35;
      const width = right - x;
      let y = top;
      let table: PdfStruct | undefined;
      for (const row of rows) {
        if (row.emphasis) {
          table?.end();
          table = undefined;
          y += 6;
          artifact(doc, () => doc.roundedRect(x, y, width, 34, 6).fill(colors.surfaceMuted));
          const textTop = y + 11;
          tagged(doc, root, 'P', () => {
            applyStyle(doc, styles.name);
            doc.text(row.label, x + 12, textTop, { lineBreak: false });
            if (row.amount !== null) {
              doc.text(row.amount, x, textTop, { width: width - 12, align: 'right' });
            }
          });
          y += 42;
          continue;
        }
        if (!table) {
          table = doc.struct('Table');
          root.add(table);
        }
        y = tableRow(
          doc,
          table,
          [
            { text: row.label, align: 'left', width: width - 100 },
            { text: row.amount ?? '', align: 'right', width: 100 },
          ],
          false,
          y,
          { ...tableLook, left: x, width },
        );
      }
      table?.end();
      return y;
    },

    totalsNote(top, text) {
      taggedText(doc, root, 'P', text, styles.note, {
        x: left,
        y: top,
        width: contentWidth - 12,
        align: 'right',
      });
      return doc.y + 4;
    },

    heading(top, text) {
      taggedText(doc, root, 'H2', text, styles.heading, { x: left, y: top });
    },

    bullets(items) {
      const list = doc.struct('L');
      root.add(list);
      doc.moveDown(0.4);
      for (const item of items) {
        const itemY = doc.y;
        taggedListItem(
          doc,
          list,
          () => doc.text('•', left, itemY, applyStyle(doc, styles.note)),
          () =>
            doc.text(item, left + 12, itemY, {
              ...applyStyle(doc, styles.body),
              width: contentWidth - 12,
              lineGap: 1.5,
            }),
        );
        doc.moveDown(0.3);
      }
      list.end();
    },

    finish() {
      const footerY = page.height - page.margin + 8;
      artifact(doc, () =>
        doc
          .moveTo(left, footerY - 10)
          .lineTo(right, footerY - 10)
          .lineWidth(0.75)
          .stroke(colors.border),
      );
      const legal = [
        `${seller.name} · ${seller.addressLines.join(', ')}`,
        `Managing director: ${seller.managingDirector} · ${seller.register} · VAT ID ${seller.vatId} · ${seller.phone}`,
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
    },
  };
}
