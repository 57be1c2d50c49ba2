import { describe, expect, it } from 'vitest';
import { eula } from '#app/content/legal/eula.ts';
import { versionLine } from '#app/content/legal/legal-document.ts';
import { encodeWinAnsi, glyphWidth, textWidth } from './font-metrics.ts';
import { renderLegalPdf } from './legal-pdf.ts';
import { pdfString, serializePdf, wrapText } from './pdf-writer.ts';

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

/** The text shown by the content streams: every literal string before a Tj, unescaped. */
function extractText(pdf: string): string[] {
  const strings: string[] = [];
  for (const match of pdf.matchAll(/\(((?:\\.|[^\\)])*)\) Tj/g)) {
    const raw = match[1] ?? '';
    const bytes = raw.replace(/\\([0-7]{3}|.)/g, (_, escape: string) =>
      escape.length === 3 ? String.fromCharCode(parseInt(escape, 8)) : escape,
    );
    strings.push(Buffer.from(bytes, 'latin1').toString('latin1'));
  }
  return strings;
}

const fromWinAnsi = (text: string) =>
  text.replace(
    /[\x91-\x97]/g,
    (char) =>
      ({
        '\x91': '‘',
        '\x92': '’',
        '\x93': '“',
        '\x94': '”',
        '\x95': '•',
        '\x96': '–',
        '\x97': '—',
      })[char] ?? char,
  );

describe('font metrics', () => {
  it('has Adobe widths for Helvetica and Helvetica-Bold', () => {
    expect(glyphWidth(32, 'regular')).toBe(278);
    expect(glyphWidth('W'.charCodeAt(0), 'regular')).toBe(944);
    expect(glyphWidth('i'.charCodeAt(0), 'regular')).toBe(222);
    expect(glyphWidth('i'.charCodeAt(0), 'bold')).toBe(278);
    expect(glyphWidth('~'.charCodeAt(0), 'bold')).toBe(584);
    expect(textWidth('Version 1', 'regular', 10)).toBeCloseTo(
      (667 + 556 + 333 + 500 + 222 + 556 + 556 + 278 + 556) / 100,
    );
  });

  it('encodes Windows-1252 and rejects what the standard fonts cannot show', () => {
    expect(encodeWinAnsi('ß “a” – €')).toEqual([
      0xdf, 0x20, 0x93, 0x61, 0x94, 0x20, 0x96, 0x20, 0x80,
    ]);
    expect(() => encodeWinAnsi('✔')).toThrow(/U\+2714/);
  });
});

describe('pdf writer', () => {
  it('wraps text to the width and never loses a word', () => {
    const text = 'The licence is granted per company and may be used by employees and affiliates.';
    const lines = wrapText(text, 'regular', 10, 150);
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(textWidth(line, 'regular', 10)).toBeLessThanOrEqual(150);
    expect(lines.join(' ')).toBe(text);
    const long = wrapText('x'.repeat(100), 'regular', 10, 50);
    expect(long.join('')).toBe('x'.repeat(100));
  });

  it('escapes literal strings', () => {
    expect(pdfString('a(b)c\\')).toBe('(a\\(b\\)c\\\\)');
    expect(pdfString('Straße – 1')).toBe('(Stra\\337e \\226 1)');
  });

  it('writes a well-formed file: header, objects at the offsets of the xref table, trailer', () => {
    const bytes = serializePdf(
      [[{ text: 'Hello', font: 'regular', size: 12, x: 50, y: 700, color: [0, 0, 0] }]],
      { title: 'T', author: 'A', subject: 'S', language: 'en', date: '2021-07-31' },
    );
    const file = latin1(bytes);
    expect(file.startsWith('%PDF-1.7\n')).toBe(true);
    expect(file.trimEnd().endsWith('%%EOF')).toBe(true);
    const startxref = Number(/startxref\n(\d+)/.exec(file)?.[1]);
    expect(file.slice(startxref, startxref + 4)).toBe('xref');
    const entries = [...file.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) =>
      Number(m[1]),
    );
    entries.forEach((offset, index) => {
      expect(file.slice(offset, offset + 10)).toMatch(new RegExp(`^${index + 1} 0 obj`));
    });
    const stream = /<< \/Length (\d+) >>\nstream\n([\s\S]*?)\nendstream/.exec(file);
    expect(Number(stream?.[1])).toBe(stream?.[2]?.length);
    expect(extractText(file)).toEqual(['Hello']);
  });

  it('renders the EULA with its version line and every word of its text', () => {
    const file = latin1(renderLegalPdf(eula, 'Orgsmith GmbH'));
    expect(file.startsWith('%PDF-')).toBe(true);
    expect(file).toContain(`(${versionLine(eula)}) Tj`);
    expect(file).toContain('Version 1');
    // No compression filter: the text is readable as written.
    expect(file).not.toContain('/Filter');

    const pdfWords = fromWinAnsi(extractText(file).join(' ')).split(/\s+/);
    const sourceWords = [
      eula.title,
      eula.subtitle,
      ...eula.intro.flatMap((block) => (block.kind === 'paragraph' ? [block.text] : block.items)),
      ...eula.sections.flatMap((section) => [
        section.heading,
        ...section.blocks.flatMap((block) =>
          block.kind === 'paragraph' ? [block.text] : block.items,
        ),
      ]),
    ]
      .join(' ')
      .split(/\s+/);
    const pdfWordSet = new Set(pdfWords);
    const missing = sourceWords.filter((word) => !pdfWordSet.has(word));
    expect(missing).toEqual([]);
    expect(file).toMatch(/\(Page 1 of \d\) Tj/);
  });

  it('produces the same bytes for the same source (reproducible builds)', () => {
    expect(renderLegalPdf(eula, 'X')).toEqual(renderLegalPdf(eula, 'X'));
  });
});
