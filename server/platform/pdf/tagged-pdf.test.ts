import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertPrintable, missingGlyphs } from './missing-glyphs.ts';
import { tableRow, type TableLook } from './pdf-table.ts';
import {
  artifact,
  createTaggedPdf,
  tagged,
  taggedListItem,
  taggedText,
  applyStyle,
  type TextStyle,
} from './tagged-pdf.ts';

// poppler-utils reads the PDF as a reader would (.ci/run installs it).
const run = promisify(execFile);
const body: TextStyle = { font: 'regular', size: 10, color: '#0b1b33', leading: 14 };
const bold: TextStyle = { ...body, font: 'bold' };
const look: TableLook = {
  left: 50,
  width: 300,
  pad: 4,
  head: bold,
  body,
  detail: { ...body, size: 8 },
  headFill: '#e6f6f4',
  rule: '#d8dee8',
};

/** A small document that uses every helper of the kit. */
function sample(): Promise<Buffer> {
  const pdf = createTaggedPdf({
    title: 'Kit sample',
    author: 'Orgsmith GmbH',
    subject: 'Every helper once',
    creator: 'the kit test',
    date: new Date('2026-11-25T00:00:00Z'),
    margins: { top: 50, bottom: 50, left: 50, right: 50 },
    bufferPages: true,
  });
  const { doc, root } = pdf;
  taggedText(doc, root, 'H1', 'Kit sample', bold, { x: 50, y: 50 });
  tagged(doc, root, 'P', () => {
    doc.text('Nguyễn, Łódź, Ελληνικά, кириллица, ₹ and €.', 50, doc.y + 4, applyStyle(doc, body));
  });
  const list = doc.struct('L');
  root.add(list);
  const y = doc.y;
  taggedListItem(
    doc,
    list,
    () => doc.text('•', 50, y, applyStyle(doc, body)),
    () => doc.text('A list item', 62, y, applyStyle(doc, body)),
  );
  list.end();
  const table = doc.struct('Table');
  root.add(table);
  const cells = (a: string, b: string) => [
    { text: a, align: 'left' as const, width: 200, detail: 'a detail' },
    { text: b, align: 'right' as const, width: 100 },
  ];
  const top = tableRow(doc, table, cells('Item', 'Amount'), true, doc.y + 10, look);
  tableRow(doc, table, cells('Seats', '€1,208.00'), false, top, look);
  table.end();
  artifact(doc, () => doc.rect(0, 0, 10, 10).fill('#0b1b33'));
  return pdf.finish(() => {
    artifact(doc, () => doc.text('Furniture 1 of 1', 50, 780, applyStyle(doc, body)), 'Pagination');
  });
}

let dir: string;
let file: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'orgsmith-pdf-kit-'));
  file = path.join(dir, 'sample.pdf');
  await writeFile(file, await sample());
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the PDF kit', () => {
  it('writes a tagged PDF 1.7 on A4, titled, in English, with the one font family embedded', async () => {
    const info = (await run('pdfinfo', [file])).stdout;
    expect(info).toMatch(/^Tagged:\s+yes$/m);
    expect(info).toMatch(/^Title:\s+Kit sample$/m);
    expect(info).toMatch(/^Author:\s+Orgsmith GmbH$/m);
    expect(info).toMatch(/^Page size:\s+595\.28 x 841\.89 pts \(A4\)$/m);
    expect(info).toMatch(/^PDF version:\s+1\.7$/m);
    const raw = (await run('cat', [file], { encoding: 'latin1' })).stdout;
    expect(raw).toMatch(/\/Lang \(en\)/);
    expect(raw).toMatch(/\/DisplayDocTitle true/);
    const fonts = (await run('pdffonts', [file])).stdout;
    expect(fonts).toMatch(/\+DejaVuSans-Bold\s+CID TrueType\s+Identity-H\s+yes yes yes/);
    expect(fonts).toMatch(/\+DejaVuSans\s+CID TrueType\s+Identity-H\s+yes yes yes/);
  });

  it('tags headings, paragraphs, lists and tables; artifacts stay outside the tree', async () => {
    const tree = (await run('pdfinfo', ['-struct-text', file])).stdout;
    const tags = [...tree.matchAll(/^(\s*)([A-Za-z]\w*)/gm)].map((m) => `${m[1]}${m[2]}`);
    expect(tags).toEqual([
      'Document',
      '  H1',
      '  P',
      '  L',
      '    LI',
      '      Lbl',
      '      LBody',
      '  Table',
      '    TR',
      '      TH',
      '      TH',
      '    TR',
      '      TD',
      '      TD',
    ]);
    expect(tree).toContain('"€1,208.00"');
    expect(tree).not.toContain('Furniture');
    const text = (await run('pdftotext', [file, '-'])).stdout;
    expect(text).toContain('Nguyễn, Łódź, Ελληνικά, кириллица, ₹ and €.');
    expect(text).toContain('Furniture 1 of 1');
  });

  it('gives the same bytes for the same source (no clock in the file)', async () => {
    expect((await sample()).equals(await sample())).toBe(true);
  });
});

describe('the glyph check', () => {
  it('names the characters the family lacks', () => {
    expect(missingGlyphs('Zürich € Nguyễn Ελληνικά ✔ 漢 ก')).toEqual(['漢', 'ก']);
    expect(() => assertPrintable('Zürich ₹')).not.toThrow();
    expect(() => assertPrintable('漢 ก')).toThrow(/^DejaVu Sans has no glyph for U\+6F22, U\+E01$/);
  });
});
