import { encodeWinAnsi, textWidth, type FontName } from './font-metrics.ts';

/**
 * A small PDF 1.7 writer for text documents: A4 pages, the standard Helvetica fonts, word-wrapped
 * paragraphs, headings, bullet lists and a footer line with page numbers. Content streams are left
 * uncompressed, so the text can be found in the file as written.
 */

export type Rgb = readonly [number, number, number];

export interface PlacedText {
  text: string;
  font: FontName;
  size: number;
  x: number;
  /** Baseline, in points from the bottom of the page. */
  y: number;
  color: Rgb;
}

export interface PdfMetadata {
  title: string;
  author: string;
  subject: string;
  /** BCP 47 language tag of the document, e.g. "en". */
  language: string;
  /** ISO date (YYYY-MM-DD) written as the creation date, so builds are reproducible. */
  date: string;
}

export const a4 = { width: 595.28, height: 841.89 } as const;

export interface TextStyle {
  font: FontName;
  size: number;
  /** Distance between baselines, in points. */
  leading: number;
  color: Rgb;
}

/** Splits text into lines no wider than `maxWidth`; a word longer than a line is broken by characters. */
export function wrapText(text: string, font: FontName, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = current ? `${current} ${word}` : word;
    if (textWidth(candidate, font, size) <= maxWidth) {
      current = candidate;
      continue;
    }
    if (current) lines.push(current);
    let rest = word;
    while (textWidth(rest, font, size) > maxWidth) {
      let cut = rest.length - 1;
      while (cut > 1 && textWidth(rest.slice(0, cut), font, size) > maxWidth) cut -= 1;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    current = rest;
  }
  if (current) lines.push(current);
  return lines;
}

export interface PageLayoutOptions {
  width: number;
  height: number;
  margin: number;
  /** Space kept free at the bottom for the footer. */
  footerHeight: number;
}

/** Flows text onto pages top to bottom, starting a new page when the next line does not fit. */
export function createPageLayout(options: PageLayoutOptions) {
  const pages: PlacedText[][] = [[]];
  const top = options.height - options.margin;
  const bottom = options.margin + options.footerHeight;
  const contentWidth = options.width - 2 * options.margin;
  let y = top;

  const currentPage = (): PlacedText[] => {
    const page = pages.at(-1);
    if (!page) throw new Error('no page');
    return page;
  };
  const newPage = () => {
    pages.push([]);
    y = top;
  };
  /** Makes room for `height` points, moving to a new page unless the page is still empty. */
  const ensure = (height: number) => {
    if (y - height < bottom && currentPage().length > 0) newPage();
  };

  return {
    contentWidth,
    /** Adds vertical space (dropped at the top of a page). */
    space(points: number) {
      if (y === top) return;
      y -= points;
    },
    /** A wrapped block of text; `keepWithNext` moves it to a new page when that much room is missing. */
    text(text: string, style: TextStyle, indent = 0, keepWithNext = 0) {
      const lines = wrapText(text, style.font, style.size, contentWidth - indent);
      ensure(style.leading * Math.min(lines.length, 2) + keepWithNext);
      for (const line of lines) {
        ensure(style.leading);
        y -= style.leading;
        currentPage().push({ ...style, text: line, x: options.margin + indent, y });
      }
    },
    /** A list item: a bullet in the margin and the text with a hanging indent. */
    bullet(text: string, style: TextStyle, indent: number) {
      const lines = wrapText(text, style.font, style.size, contentWidth - indent);
      lines.forEach((line, index) => {
        ensure(style.leading);
        y -= style.leading;
        if (index === 0) {
          currentPage().push({ ...style, text: '•', x: options.margin + indent / 3, y });
        }
        currentPage().push({ ...style, text: line, x: options.margin + indent, y });
      });
    },
    pages(): PlacedText[][] {
      return pages.filter((page) => page.length > 0);
    },
  };
}

/** A PDF literal string of WinAnsi-encoded text; bytes outside printable ASCII become octal escapes. */
export function pdfString(text: string): string {
  let out = '(';
  for (const code of encodeWinAnsi(text)) {
    if (code === 0x28 || code === 0x29 || code === 0x5c) out += `\\${String.fromCharCode(code)}`;
    else if (code < 0x20 || code > 0x7e) out += `\\${code.toString(8).padStart(3, '0')}`;
    else out += String.fromCharCode(code);
  }
  return `${out})`;
}

/** A text string for the document information dictionary: UTF-16BE with a byte order mark. */
function pdfTextString(text: string): string {
  let hex = 'FEFF';
  for (let index = 0; index < text.length; index += 1) {
    hex += text.charCodeAt(index).toString(16).toUpperCase().padStart(4, '0');
  }
  return `<${hex}>`;
}

const number = (value: number) => String(Math.round(value * 100) / 100);

function contentStream(texts: readonly PlacedText[]): string {
  return texts
    .map((item) => {
      const fontKey = item.font === 'bold' ? 'F2' : 'F1';
      const [r, g, b] = item.color.map(number);
      return `BT\n${r} ${g} ${b} rg\n/${fontKey} ${number(item.size)} Tf\n${number(item.x)} ${number(item.y)} Td\n${pdfString(item.text)} Tj\nET`;
    })
    .join('\n');
}

/** 32-bit FNV-1a, for a deterministic document ID. */
function fnv1a(text: string, seed: number): string {
  let hash = seed >>> 0;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** Serializes laid-out pages to the bytes of a PDF file. */
export function serializePdf(
  pages: readonly (readonly PlacedText[])[],
  metadata: PdfMetadata,
  size: { width: number; height: number } = a4,
): Uint8Array {
  const objects: string[] = [];
  const pageCount = pages.length;
  const firstPageObject = 6;
  const pageObjects = pages.map((_, index) => firstPageObject + index * 2);
  const compactDate = `D:${metadata.date.replaceAll('-', '')}000000Z`;

  objects[1] =
    `<< /Type /Catalog /Pages 2 0 R /Lang ${pdfTextString(metadata.language)} ` +
    `/ViewerPreferences << /DisplayDocTitle true >> >>`;
  objects[2] = `<< /Type /Pages /Kids [${pageObjects.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageCount} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] =
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
  objects[5] =
    `<< /Title ${pdfTextString(metadata.title)} /Author ${pdfTextString(metadata.author)} ` +
    `/Subject ${pdfTextString(metadata.subject)} /Creator ${pdfTextString(metadata.author)} ` +
    `/CreationDate (${compactDate}) /ModDate (${compactDate}) >>`;
  pages.forEach((texts, index) => {
    const pageId = firstPageObject + index * 2;
    const stream = contentStream(texts);
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${number(size.width)} ${number(size.height)}] ` +
      `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageId + 1} 0 R >>`;
    objects[pageId + 1] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
  });

  // The binary comment after the header tells transfer tools the file is not plain text.
  let file = '%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id += 1) {
    offsets[id] = file.length;
    file += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xrefOffset = file.length;
  const id =
    fnv1a(file, 0x811c9dc5) +
    fnv1a(file, 0x01234567) +
    fnv1a(file, 0x89abcdef) +
    fnv1a(file, 0x7f4a7c15);
  file += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let index = 1; index < objects.length; index += 1) {
    file += `${String(offsets[index]).padStart(10, '0')} 00000 n \n`;
  }
  file +=
    `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info 5 0 R /ID [<${id}> <${id}>] >>\n` +
    `startxref\n${xrefOffset}\n%%EOF\n`;

  const bytes = new Uint8Array(file.length);
  for (let index = 0; index < file.length; index += 1) bytes[index] = file.charCodeAt(index);
  return bytes;
}
