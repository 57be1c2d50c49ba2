import {
  numberedHeading,
  versionLine,
  type LegalDocument,
} from '#app/content/legal/legal-document.ts';
import {
  a4,
  createPageLayout,
  serializePdf,
  type PlacedText,
  type TextStyle,
} from './pdf-writer.ts';

const navy = [0.043, 0.106, 0.2] as const;
const muted = [0.28, 0.33, 0.41] as const;

const styles = {
  title: { font: 'bold', size: 20, leading: 26, color: navy },
  subtitle: { font: 'regular', size: 12, leading: 17, color: muted },
  version: { font: 'bold', size: 11, leading: 16, color: navy },
  heading: { font: 'bold', size: 12.5, leading: 18, color: navy },
  body: { font: 'regular', size: 10.5, leading: 15, color: navy },
  footer: { font: 'regular', size: 8.5, leading: 12, color: muted },
} satisfies Record<string, TextStyle>;

const margin = 62;

/**
 * Renders a legal document (the same structured source as its web page) to PDF bytes: title,
 * version line, numbered sections, and a footer with the version line and page numbers.
 */
export function renderLegalPdf(document: LegalDocument, owner: string): Uint8Array {
  const layout = createPageLayout({ ...a4, margin, footerHeight: 28 });
  layout.text(document.title, styles.title);
  layout.text(document.subtitle, styles.subtitle);
  layout.space(4);
  layout.text(versionLine(document), styles.version);
  layout.space(14);

  const writeBlocks = (blocks: LegalDocument['intro']) => {
    for (const block of blocks) {
      if (block.kind === 'paragraph') {
        layout.text(block.text, styles.body);
        layout.space(6);
      } else {
        for (const item of block.items) {
          layout.bullet(item, styles.body, 18);
          layout.space(3);
        }
        layout.space(3);
      }
    }
  };

  writeBlocks(document.intro);
  for (const section of document.sections) {
    layout.space(8);
    // A heading never ends a page: keep room for two lines of its first paragraph.
    layout.text(numberedHeading(document, section), styles.heading, 0, styles.body.leading * 2);
    layout.space(2);
    writeBlocks(section.blocks);
  }

  const pages = layout.pages();
  const footerText = `${owner} · ${document.title} · ${versionLine(document)}`;
  const withFooters: PlacedText[][] = pages.map((texts, index) => [
    ...texts,
    { ...styles.footer, text: footerText, x: margin, y: margin - 20 },
    {
      ...styles.footer,
      text: `Page ${index + 1} of ${pages.length}`,
      x: a4.width - margin - 60,
      y: margin - 20,
    },
  ]);
  return serializePdf(withFooters, {
    title: `${document.title} – ${versionLine(document)}`,
    author: owner,
    subject: document.subtitle,
    language: 'en',
    date: document.date,
  });
}
