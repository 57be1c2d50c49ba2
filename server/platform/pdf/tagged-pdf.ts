import PDFDocument from 'pdfkit';
import { pdfFontBytes, type PdfFont } from './pdf-fonts.ts';

export type PdfKitDocument = InstanceType<typeof PDFDocument>;
export type PdfStruct = ReturnType<PdfKitDocument['struct']>;

/** A4 in points, the size of every PDF we write. */
export const a4 = { width: 595.28, height: 841.89 } as const;

export interface TaggedPdfSetup {
  title: string;
  author: string;
  subject: string;
  creator: string;
  /** The document's own date, for both creation and change: the same source gives the same bytes. */
  date: Date;
  margins: { top: number; bottom: number; left: number; right: number };
  /** Keep every page open, to draw page furniture ("Page n of m") at the end. */
  bufferPages?: boolean;
}

export interface TaggedPdf {
  doc: PdfKitDocument;
  /** The structure tree's `Document` element; the writer adds headings, paragraphs, lists. */
  root: PdfStruct;
  /**
   * Ends the structure tree, lets `furniture` draw what lies outside it (artifacts only), ends
   * the file and resolves with its bytes.
   */
  finish(furniture?: () => void): Promise<Buffer>;
}

/**
 * A tagged PDF 1.7 on A4 (decision 137): a structure tree, `/Lang (en)`, the title in the
 * document information and shown as the window title, and the one font family registered as
 * `regular` and `bold`.
 */
export function createTaggedPdf(setup: TaggedPdfSetup): TaggedPdf {
  const doc = new PDFDocument({
    size: 'A4',
    margins: setup.margins,
    pdfVersion: '1.7',
    tagged: true,
    lang: 'en',
    displayTitle: true,
    bufferPages: setup.bufferPages ?? false,
    info: {
      Title: setup.title,
      Author: setup.author,
      Subject: setup.subject,
      Creator: setup.creator,
      // pdfkit derives the file id from these: no clock in the bytes.
      CreationDate: setup.date,
      ModDate: setup.date,
    },
  });
  for (const [name, bytes] of Object.entries(pdfFontBytes())) doc.registerFont(name, bytes);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const root = doc.struct('Document');
  doc.addStructure(root);
  return {
    doc,
    root,
    finish(furniture) {
      root.end();
      furniture?.();
      doc.end();
      return done;
    },
  };
}

export interface TextStyle {
  font: PdfFont;
  size: number;
  color: string;
  /** Distance between baselines, in points; without it pdfkit's own line height. */
  leading?: number;
}

/** Sets font, size and colour; returns the text options that give the style's leading. */
export function applyStyle(doc: PdfKitDocument, style: TextStyle): { lineGap?: number } {
  doc.font(style.font).fontSize(style.size).fillColor(style.color);
  return style.leading === undefined
    ? {}
    : { lineGap: style.leading - doc.currentLineHeight(true) };
}

/** Adds a structure element of `type` (H1, H2, P, Link…) to `parent` around what `draw` prints. */
export function tagged(
  doc: PdfKitDocument,
  parent: PdfStruct,
  type: string,
  draw: () => void,
): void {
  parent.add(doc.struct(type, {}, draw));
}

/**
 * One text in one style as a structure element of `type`, at (x, y); `options` are pdfkit's
 * (width, align, …).
 */
export function taggedText(
  doc: PdfKitDocument,
  parent: PdfStruct,
  type: string,
  text: string,
  style: TextStyle,
  at: { x: number; y: number } & PDFKit.Mixins.TextOptions,
): void {
  const { x, y, ...options } = at;
  tagged(doc, parent, type, () => {
    doc.text(text, x, y, { ...applyStyle(doc, style), ...options });
  });
}

/** A list item: `LI` with its label (`Lbl`, the bullet) and body (`LBody`). */
export function taggedListItem(
  doc: PdfKitDocument,
  list: PdfStruct,
  label: () => void,
  body: () => void,
): void {
  const item = doc.struct('LI');
  list.add(item);
  item.add(doc.struct('Lbl', {}, label));
  item.add(doc.struct('LBody', {}, body));
  item.end();
}

/**
 * What carries no meaning (rules, tints, a logo's shapes) or repeats on every page (a footer):
 * marked as an artifact, hidden from readers and outside the tree.
 */
export function artifact(doc: PdfKitDocument, draw: () => void, type?: 'Pagination'): void {
  doc.markContent('Artifact', type ? { type } : undefined);
  draw();
  doc.endMarkedContent();
}
