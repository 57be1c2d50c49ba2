import path from 'node:path';
import { openSync } from 'fontkit';
import PDFDocument from 'pdfkit';
import {
  numberedHeading,
  versionLine,
  type LegalBlock,
  type LegalDocument,
} from '#app/content/legal/legal-document.ts';

/**
 * Liberation Sans (metric-compatible with Helvetica, so the PDF keeps its look and line breaks),
 * embedded as a subset: any character the font has renders, not only Windows-1252. Licence:
 * fonts/LICENSE-Liberation.txt (GPL 2 with the font exception: embedding in a document is free).
 */
export const legalPdfFonts = {
  regular: path.join(import.meta.dirname, 'fonts/LiberationSans-Regular.ttf'),
  bold: path.join(import.meta.dirname, 'fonts/LiberationSans-Bold.ttf'),
} as const;

let fonts: ReturnType<typeof openSync>[] | undefined;

/** The characters of `text` that a font of the PDF has no glyph for (they would print as boxes). */
export function missingGlyphs(text: string): string[] {
  fonts ??= Object.values(legalPdfFonts).map((file) => openSync(file));
  const missing = new Set<string>();
  for (const char of text.replace(/\s/g, '')) {
    const codePoint = char.codePointAt(0) ?? 0;
    if (fonts.some((font) => 'fonts' in font || !font.hasGlyphForCodePoint(codePoint))) {
      missing.add(char);
    }
  }
  return [...missing];
}

/** Every text the PDF prints of a document, for the glyph check. */
function allText(document: LegalDocument, owner: string): string {
  const blocks = (items: readonly LegalBlock[]) =>
    items.flatMap((block) => (block.kind === 'paragraph' ? [block.text] : block.items));
  return [
    owner,
    document.title,
    document.subtitle,
    versionLine(document),
    '•·–',
    ...blocks(document.intro),
    ...document.sections.flatMap((section) => [
      numberedHeading(document, section),
      ...blocks(section.blocks),
    ]),
  ].join(' ');
}

interface TextStyle {
  font: keyof typeof legalPdfFonts;
  size: number;
  /** Distance between baselines, in points. */
  leading: number;
  color: string;
}

const navy = '#0b1b33';
const muted = '#475469';

const styles = {
  title: { font: 'bold', size: 20, leading: 26, color: navy },
  subtitle: { font: 'regular', size: 12, leading: 17, color: muted },
  version: { font: 'bold', size: 11, leading: 16, color: navy },
  heading: { font: 'bold', size: 12.5, leading: 18, color: navy },
  body: { font: 'regular', size: 10.5, leading: 15, color: navy },
  footer: { font: 'regular', size: 8.5, leading: 12, color: muted },
} satisfies Record<string, TextStyle>;

const margin = 62;
const footerHeight = 28;
const bulletIndent = 18;

type Doc = InstanceType<typeof PDFDocument>;
type Struct = ReturnType<Doc['struct']>;

/**
 * Renders a legal document (the same structured source as its web page) to a tagged PDF: title
 * (H1), subtitle and version line, numbered sections (Sect with H2, P and L/LI/Lbl/LBody), and a
 * footer with the version line and page numbers marked as a pagination artifact.
 */
export function renderLegalPdf(document: LegalDocument, owner: string): Promise<Uint8Array> {
  const missing = missingGlyphs(allText(document, owner));
  if (missing.length > 0) {
    const list = missing.map(
      (char) => `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase()}`,
    );
    return Promise.reject(new Error(`Liberation Sans has no glyph for ${list.join(', ')}`));
  }
  const title = `${document.title} – ${versionLine(document)}`;
  // A fixed date: the same source gives the same bytes (pdfkit derives the file id from it).
  const date = new Date(`${document.date}T00:00:00Z`);
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: margin, left: margin, right: margin, bottom: margin + footerHeight },
    pdfVersion: '1.7',
    tagged: true,
    lang: 'en',
    displayTitle: true,
    bufferPages: true,
    info: {
      Title: title,
      Author: owner,
      Subject: document.subtitle,
      Creator: owner,
      CreationDate: date,
      ModDate: date,
    },
  });
  for (const [name, file] of Object.entries(legalPdfFonts)) doc.registerFont(name, file);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Uint8Array>((resolve, reject) => {
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
  });

  const contentWidth = doc.page.width - 2 * margin;
  const root = doc.struct('Document');
  doc.addStructure(root);

  const styled = (style: TextStyle) => {
    doc.font(style.font).fontSize(style.size).fillColor(style.color);
    return { lineGap: style.leading - doc.currentLineHeight(true) };
  };
  const heightOf = (text: string, style: TextStyle, width: number) =>
    doc.heightOfString(text, { width, ...styled(style) });
  /** Vertical space, dropped at the top of a page. */
  const space = (points: number) => {
    if (doc.y > doc.page.margins.top) doc.y += points;
  };
  /** Starts a new page unless `height` points still fit on this one. */
  const keepRoom = (height: number) => {
    if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
  };
  /** A block of text as one structure element; its first two lines never part. */
  const block = (parent: Struct, type: string, text: string, style: TextStyle, keep = 0) => {
    keepRoom(Math.min(heightOf(text, style, contentWidth), style.leading * 2) + keep);
    parent.add(
      doc.struct(type, {}, () => {
        doc.text(text, margin, doc.y, { width: contentWidth, ...styled(style) });
      }),
    );
  };
  const blocks = (parent: Struct, items: readonly LegalBlock[]) => {
    for (const item of items) {
      if (item.kind === 'paragraph') {
        block(parent, 'P', item.text, styles.body);
        space(6);
        continue;
      }
      const list = doc.struct('L');
      parent.add(list);
      for (const entry of item.items) {
        const width = contentWidth - bulletIndent;
        keepRoom(Math.min(heightOf(entry, styles.body, width), styles.body.leading * 2));
        const y = doc.y;
        const listItem = doc.struct('LI');
        list.add(listItem);
        listItem.add(
          doc.struct('Lbl', {}, () => {
            doc.text('•', margin + bulletIndent / 3, y, {
              lineBreak: false,
              ...styled(styles.body),
            });
          }),
        );
        listItem.add(
          doc.struct('LBody', {}, () => {
            doc.text(entry, margin + bulletIndent, y, { width, ...styled(styles.body) });
          }),
        );
        listItem.end();
        space(3);
      }
      list.end();
      space(3);
    }
  };

  block(root, 'H1', document.title, styles.title);
  block(root, 'P', document.subtitle, styles.subtitle);
  space(4);
  block(root, 'P', versionLine(document), styles.version);
  space(14);
  blocks(root, document.intro);
  for (const section of document.sections) {
    const part = doc.struct('Sect', { title: section.heading });
    root.add(part);
    space(8);
    // A heading never ends a page: keep room for two lines of its first paragraph.
    block(part, 'H2', numberedHeading(document, section), styles.heading, styles.body.leading * 2);
    space(2);
    blocks(part, section.blocks);
    part.end();
  }
  root.end();

  const footer = `${owner} · ${document.title} · ${versionLine(document)}`;
  const { start, count } = doc.bufferedPageRange();
  for (let index = start; index < start + count; index += 1) {
    doc.switchToPage(index);
    // Below the bottom margin: without this pdfkit would start a page for the footer.
    doc.page.margins.bottom = 0;
    // Baseline 20 points below the margin; pdfkit places the top of the line (ascent 0.905 em).
    const y = doc.page.height - (margin - 20) - styles.footer.size * 0.905;
    doc.markContent('Artifact', { type: 'Pagination' });
    const options = { width: contentWidth, lineBreak: false, ...styled(styles.footer) };
    doc.text(footer, margin, y, options);
    doc.text(`Page ${index + 1} of ${count}`, margin, y, { ...options, align: 'right' });
    doc.endMarkedContent();
  }
  doc.end();
  return done;
}
