import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

const preload = '<link rel="modulepreload"';
const lowPriorityPreload = '<link rel="modulepreload" fetchpriority="low"';

/**
 * Marks React Router's module preloads `fetchpriority="low"` in the streamed HTML: the
 * server-rendered page paints without them, so the hydration code should not compete with the
 * stylesheet and images for bandwidth (decision 011). Tags split across chunks are handled by
 * holding back a tail shorter than the pattern.
 */
export function lowerModulePreloadPriority(): Transform {
  let carry = '';
  // Decodes across chunk boundaries, so a character split between two chunks stays whole.
  const decoder = new StringDecoder('utf8');
  return new Transform({
    transform(chunk: Buffer | string, _encoding, callback) {
      const text = carry + (typeof chunk === 'string' ? chunk : decoder.write(chunk));
      const keep = Math.min(preload.length - 1, text.length);
      const head = text.slice(0, text.length - keep);
      const tail = text.slice(text.length - keep);
      // Only hold back a tail that could still grow into the pattern.
      const splitAt = tailStartOfPartialMatch(tail);
      carry = tail.slice(splitAt);
      callback(null, (head + tail.slice(0, splitAt)).replaceAll(preload, lowPriorityPreload));
    },
    flush(callback) {
      callback(null, (carry + decoder.end()).replaceAll(preload, lowPriorityPreload));
    },
  });
}

function tailStartOfPartialMatch(tail: string): number {
  for (let start = 0; start < tail.length; start += 1) {
    if (preload.startsWith(tail.slice(start))) return start;
  }
  return tail.length;
}
