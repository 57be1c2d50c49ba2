import {
  numberedHeading,
  versionLine,
  type LegalBlock,
  type LegalDocument,
} from '#app/components/content/legal-document.ts';
import { color } from '#shared/design-tokens.ts';
import { assertPrintable } from '#server/platform/pdf/missing-glyphs.ts';
import { pdfFontAscent } from '#server/platform/pdf/pdf-fonts.ts';
import {
  artifact,
  createTaggedPdf,
  taggedListItem,
  applyStyle,
  type PdfStruct,
  type TextStyle,
} from '#server/platform/pdf/tagged-pdf.ts';

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

type LegalStyle = TextStyle & { leading: number };

/** The site's design tokens (shared/design-tokens.ts, decision 172). */
const navy = color.navy;
const muted = color.textMuted;

const styles = {
  title: { font: 'bold', size: 20, leading: 26, color: navy },
  subtitle: { font: 'regular', size: 12, leading: 17, color: muted },
  version: { font: 'bold', size: 11, leading: 16, color: navy },
  heading: { font: 'bold', size: 12.5, leading: 18, color: navy },
  body: { font: 'regular', size: 10.5, leading: 15, color: navy },
  footer: { font: 'regular', size: 8.5, leading: 12, color: muted },
} satisfies Record<string, LegalStyle>;

const margin = 62;
const footerHeight = 28;
const bulletIndent = 18;

/**
 * Renders a legal document (the same structured source as its web page) to a tagged PDF with
 * the kit of server/platform/pdf/ (decisions 137, 165): title (H1), subtitle and version line, numbered
 * sections (Sect with H2, P and L/LI/Lbl/LBody), and a footer with the version line and page
 * numbers marked as a pagination artifact. A character the font lacks stops it.
 */
export async function renderLegalPdf(document: LegalDocument, owner: string): Promise<Uint8Array> {
  assertPrintable(allText(document, owner));
  const pdf = createTaggedPdf({
    title: `${document.title} – ${versionLine(document)}`,
    author: owner,
    subject: document.subtitle,
    creator: owner,
    date: new Date(`${document.date}T00:00:00Z`),
    margins: { top: margin, left: margin, right: margin, bottom: margin + footerHeight },
    bufferPages: true,
  });
  const { doc, root } = pdf;
  const contentWidth = doc.page.width - 2 * margin;

  const heightOf = (text: string, style: LegalStyle, width: number) =>
    doc.heightOfString(text, { width, ...applyStyle(doc, style) });
  /** Vertical space, dropped at the top of a page. */
  const space = (points: number) => {
    if (doc.y > doc.page.margins.top) doc.y += points;
  };
  /** Starts a new page unless `height` points still fit on this one. */
  const keepRoom = (height: number) => {
    if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
  };
  /** A block of text as one structure element; its first two lines never part. */
  const block = (parent: PdfStruct, type: string, text: string, style: LegalStyle, keep = 0) => {
    keepRoom(Math.min(heightOf(text, style, contentWidth), style.leading * 2) + keep);
    parent.add(
      doc.struct(type, {}, () => {
        doc.text(text, margin, doc.y, { width: contentWidth, ...applyStyle(doc, style) });
      }),
    );
  };
  const blocks = (parent: PdfStruct, items: readonly LegalBlock[]) => {
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
        taggedListItem(
          doc,
          list,
          () => {
            doc.text('•', margin + bulletIndent / 3, y, {
              lineBreak: false,
              ...applyStyle(doc, styles.body),
            });
          },
          () => {
            doc.text(entry, margin + bulletIndent, y, { width, ...applyStyle(doc, styles.body) });
          },
        );
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

  const footer = `${owner} · ${document.title} · ${versionLine(document)}`;
  return pdf.finish(() => {
    const { start, count } = doc.bufferedPageRange();
    for (let index = start; index < start + count; index += 1) {
      doc.switchToPage(index);
      // Below the bottom margin: without this pdfkit would start a page for the footer.
      doc.page.margins.bottom = 0;
      // Baseline 20 points below the margin; pdfkit places the top of the line.
      const y = doc.page.height - (margin - 20) - styles.footer.size * pdfFontAscent;
      artifact(
        doc,
        () => {
          const options = {
            width: contentWidth,
            lineBreak: false,
            ...applyStyle(doc, styles.footer),
          };
          doc.text(footer, margin, y, options);
          doc.text(`Page ${index + 1} of ${count}`, margin, y, { ...options, align: 'right' });
        },
        'Pagination',
      );
    }
  });
}
