/**
 * Glyph widths (1/1000 em) of the standard PDF fonts Helvetica and Helvetica-Bold, from Adobe's
 * font metrics, indexed by Windows-1252 code. Needed to wrap lines; the fonts themselves are built
 * into every PDF reader, so nothing is embedded.
 */

export type FontName = 'regular' | 'bold';

/** Widths of codes 32–126 (space to tilde), in order. */
const asciiWidths: Record<FontName, readonly number[]> = {
  regular: [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
    556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
    611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
    667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500,
    222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
  ],
  bold: [
    278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
    556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611, 975, 722, 722, 722, 722, 667,
    611, 778, 722, 278, 556, 722, 611, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
    667, 611, 333, 278, 333, 584, 556, 333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556,
    278, 889, 611, 611, 611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584,
  ],
};

/** Widths of the codes above 126 that legal texts use: [regular, bold]. */
const extraWidths: ReadonlyMap<number, readonly [number, number]> = new Map([
  [0x80, [556, 556]], // euro
  [0x85, [1000, 1000]], // ellipsis
  [0x91, [222, 278]], // left single quote
  [0x92, [222, 278]], // right single quote
  [0x93, [333, 500]], // left double quote
  [0x94, [333, 500]], // right double quote
  [0x95, [350, 350]], // bullet
  [0x96, [556, 556]], // en dash
  [0x97, [1000, 1000]], // em dash
  [0x99, [1000, 1000]], // trademark
  [0xa0, [278, 278]], // no-break space
  [0xa7, [556, 556]], // section sign
  [0xa9, [737, 737]], // copyright
  [0xae, [737, 737]], // registered
  [0xb0, [400, 400]], // degree
  [0xb7, [278, 278]], // middle dot
  [0xc4, [667, 722]], // A umlaut
  [0xd6, [778, 778]], // O umlaut
  [0xdc, [722, 722]], // U umlaut
  [0xdf, [611, 611]], // sharp s
  [0xe4, [556, 556]], // a umlaut
  [0xe9, [556, 556]], // e acute
  [0xf6, [556, 611]], // o umlaut
  [0xfc, [556, 611]], // u umlaut
]);

/** Width of one Windows-1252 code; unlisted accented letters fall back to a typical letter width. */
export function glyphWidth(code: number, font: FontName): number {
  if (code >= 32 && code <= 126) return asciiWidths[font][code - 32] ?? 556;
  const extra = extraWidths.get(code);
  if (extra) return font === 'regular' ? extra[0] : extra[1];
  return 556;
}

/** Unicode characters of Windows-1252 outside Latin-1 (the 0x80–0x9F block). */
const cp1252High: ReadonlyMap<string, number> = new Map([
  ['€', 0x80],
  ['‚', 0x82],
  ['ƒ', 0x83],
  ['„', 0x84],
  ['…', 0x85],
  ['†', 0x86],
  ['‡', 0x87],
  ['ˆ', 0x88],
  ['‰', 0x89],
  ['Š', 0x8a],
  ['‹', 0x8b],
  ['Œ', 0x8c],
  ['Ž', 0x8e],
  ['‘', 0x91],
  ['’', 0x92],
  ['“', 0x93],
  ['”', 0x94],
  ['•', 0x95],
  ['–', 0x96],
  ['—', 0x97],
  ['˜', 0x98],
  ['™', 0x99],
  ['š', 0x9a],
  ['›', 0x9b],
  ['œ', 0x9c],
  ['ž', 0x9e],
  ['Ÿ', 0x9f],
]);

/** The Windows-1252 (WinAnsiEncoding) code of a character, or undefined if it has none. */
export function winAnsiCode(char: string): number | undefined {
  const mapped = cp1252High.get(char);
  if (mapped !== undefined) return mapped;
  const codePoint = char.codePointAt(0);
  if (codePoint === undefined) return undefined;
  if ((codePoint >= 0x20 && codePoint <= 0x7e) || (codePoint >= 0xa0 && codePoint <= 0xff)) {
    return codePoint;
  }
  return undefined;
}

/** Encodes text for a WinAnsiEncoding font; throws on a character the standard fonts cannot show. */
export function encodeWinAnsi(text: string): number[] {
  return [...text].map((char) => {
    const code = winAnsiCode(char);
    if (code === undefined) {
      throw new Error(
        `Character "${char}" (U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}) cannot be written with the standard PDF fonts`,
      );
    }
    return code;
  });
}

/** Width of a text in points at a font size. */
export function textWidth(text: string, font: FontName, size: number): number {
  return encodeWinAnsi(text).reduce((sum, code) => sum + glyphWidth(code, font), 0) * (size / 1000);
}
