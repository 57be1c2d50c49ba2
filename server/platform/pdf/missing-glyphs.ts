import { openSync } from 'fontkit';
import { pdfFontFamily, pdfFontFiles } from './pdf-fonts.ts';

let fonts: ReturnType<typeof openSync>[] | undefined;

/** The characters of `text` that a font of the family has no glyph for (they would print as boxes). */
export function missingGlyphs(text: string): string[] {
  fonts ??= Object.values(pdfFontFiles).map((file) => openSync(file));
  const missing = new Set<string>();
  for (const char of text.replace(/\s/g, '')) {
    const codePoint = char.codePointAt(0) ?? 0;
    if (fonts.some((font) => 'fonts' in font || !font.hasGlyphForCodePoint(codePoint))) {
      missing.add(char);
    }
  }
  return [...missing];
}

/** Throws, naming the code points, when the family cannot print every character of `text`. */
export function assertPrintable(text: string): void {
  const missing = missingGlyphs(text);
  if (missing.length === 0) return;
  const list = missing.map((char) => `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase()}`);
  throw new Error(`${pdfFontFamily} has no glyph for ${list.join(', ')}`);
}
