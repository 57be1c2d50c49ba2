import { LRUCache } from 'lru-cache';
import type { QuoteDocument } from './quote-document.ts';

/** What the cache may hold: a quote's PDF is about 40 KB, so some hundreds of them. */
const MAX_BYTES = 16 * 1024 * 1024;

/**
 * A quote's PDF is drawn on its first fetch (embedding the font costs tens of milliseconds) and
 * kept for the next: a quote never changes once made, and its accept link is its own.
 */
export function createQuotePdfCache() {
  const cache = new LRUCache<string, Buffer>({
    maxSize: MAX_BYTES,
    sizeCalculation: (pdf) => Math.max(1, pdf.byteLength),
  });
  return {
    async pdfOf(document: QuoteDocument, acceptUrl: string): Promise<Buffer> {
      // Keyed by the link too: a restored older backup may hand out a number again.
      const key = `${document.number} ${acceptUrl}`;
      const kept = cache.get(key);
      if (kept) return kept;
      // pdfkit, its font engine and the fonts load on the first PDF only: about 30 MB that most
      // instances never need (decision 135).
      const { renderQuotePdf } = await import('./render-quote-pdf.ts');
      const pdf = await renderQuotePdf(document, acceptUrl);
      cache.set(key, pdf);
      return pdf;
    },
  };
}
