import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The one font family of every PDF we write (decision 165): DejaVu Sans, regular and bold,
 * embedded as a subset. It prints what buyers type into a quote in Latin (Vietnamese too), Greek,
 * Cyrillic, Armenian and Hebrew, and every currency sign. Licence: fonts/LICENSE-DejaVu.txt
 * (Bitstream Vera; DejaVu's changes are public domain).
 */
export const pdfFontFamily = 'DejaVu Sans';

export const pdfFontFiles = {
  regular: fileURLToPath(new URL('./fonts/DejaVuSans.ttf', import.meta.url)),
  bold: fileURLToPath(new URL('./fonts/DejaVuSans-Bold.ttf', import.meta.url)),
} as const;

export type PdfFont = keyof typeof pdfFontFiles;

/** The family's ascent in em (1901/2048, both weights): pdfkit places a line's top at y, not its baseline. */
export const pdfFontAscent = 1901 / 2048;

let fontBytes: Record<PdfFont, Buffer> | undefined;

/** The font files, read once per process (a server draws many quotes). */
export function pdfFontBytes(): Record<PdfFont, Buffer> {
  fontBytes ??= {
    regular: readFileSync(pdfFontFiles.regular),
    bold: readFileSync(pdfFontFiles.bold),
  };
  return fontBytes;
}
