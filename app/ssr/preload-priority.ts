import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

const preload = '<link rel="modulepreload"';
const lowPriorityPreload = '<link rel="modulepreload" fetchpriority="low"';
const preloadTag = /<link rel="modulepreload"[^>]*>/g;
const headEnd = '</head>';
/** A head longer than this is passed on as it comes (ours are about 3 kB). */
const maxHeldHead = 64 * 1024;

/** The head with its module preloads moved to its end, after the stylesheets. */
function preloadsLast(head: string): string {
  const preloads = head.match(preloadTag) ?? [];
  return head.replace(preloadTag, '') + preloads.join('');
}

/**
 * Marks React Router's module preloads `fetchpriority="low"` in the streamed HTML and moves them
 * behind the stylesheets in `<head>`: the server-rendered page paints without them, so the
 * hydration code should not compete with the stylesheets for bandwidth or connections
 * (decisions 011, 083). The head is held until `</head>` arrives; after it, tags split across
 * chunks are handled by holding back a tail shorter than the pattern. React matches the links in
 * the head by their attributes when it hydrates, not by their order.
 */
export function lowerModulePreloadPriority(): Transform {
  let head: string | undefined = '';
  let carry = '';
  // Decodes across chunk boundaries, so a character split between two chunks stays whole.
  const decoder = new StringDecoder('utf8');

  /** Marks the preloads in the body, holding back a tail that could still grow into one. */
  function body(text: string): string {
    const keep = Math.min(preload.length - 1, text.length);
    const done = text.slice(0, text.length - keep);
    const tail = text.slice(text.length - keep);
    const splitAt = tailStartOfPartialMatch(tail);
    carry = tail.slice(splitAt);
    return (done + tail.slice(0, splitAt)).replaceAll(preload, lowPriorityPreload);
  }

  return new Transform({
    transform(chunk: Buffer | string, _encoding, callback) {
      const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
      if (head === undefined) {
        callback(null, body(carry + text));
        return;
      }
      head += text;
      const end = head.indexOf(headEnd);
      if (end === -1 && head.length <= maxHeldHead) {
        callback(null, '');
        return;
      }
      const held = head;
      head = undefined;
      if (end === -1) {
        callback(null, body(held));
        return;
      }
      const rest = body(held.slice(end));
      callback(
        null,
        preloadsLast(held.slice(0, end)).replaceAll(preload, lowPriorityPreload) + rest,
      );
    },
    flush(callback) {
      const text = (head ?? '') + carry + decoder.end();
      callback(null, text.replaceAll(preload, lowPriorityPreload));
    },
  });
}

function tailStartOfPartialMatch(tail: string): number {
  for (let start = 0; start < tail.length; start += 1) {
    if (preload.startsWith(tail.slice(start))) return start;
  }
  return tail.length;
}
