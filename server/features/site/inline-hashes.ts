import { createHash } from 'node:crypto';
import type { InlineHashes } from '#server/platform/http/security-headers.ts';

const inlineScript = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const inlineStyle = /<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi;
/**
 * Data blocks (JSON-LD, JSON) are never run. Every other marked script is hashed, the inert
 * hydration block included: the loader runs its text as a module (decision 110).
 */
const dataType = /^\s*application\/(?:[\w.+-]+\+)?json\s*$/i;
/** A render's mark: base64url, so it never needs escaping inside an attribute. */
const markShape = /^[\w-]{16,}$/;

const sha256 = (text: string) =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

function typeOf(attributes: string): string {
  return (
    /\btype\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attributes)?.slice(1).find(Boolean) ?? ''
  );
}

export interface OwnInlineCode {
  /** The document as it is served: the marks removed, so every render gives the same bytes. */
  html: string;
  hashes: InlineHashes;
}

/**
 * The CSP hashes of the inline scripts our render emitted, and the document without their marks.
 * The render puts a fresh random mark (` nonce="…"`) on every script it writes — React Router's,
 * React's and the hydration loader — and only marked scripts are hashed (decision 120): a script
 * that reached the HTML any other way (page content, a release note, a dependency's markup) cannot
 * know the mark, is not hashed, and the browser refuses to run it. Style elements are hashed as
 * found. The browser hashes the text between the tags exactly as sent, so this reads the very HTML
 * that is served (decision 100).
 */
export function ownInlineCode(html: string, mark: string): OwnInlineCode {
  if (!markShape.test(mark)) throw new Error('a render mark is at least 16 base64url characters');
  const markAttribute = ` nonce="${mark}"`;
  const scripts = new Set<string>();
  for (const [, attributes = '', body = ''] of html.matchAll(inlineScript)) {
    if (!attributes.includes(markAttribute)) continue;
    if (/\bsrc\s*=/i.test(attributes) || dataType.test(typeOf(attributes))) continue;
    scripts.add(sha256(body));
  }
  const styles = new Set<string>();
  for (const [, body = ''] of html.matchAll(inlineStyle)) styles.add(sha256(body));
  return {
    html: html.replaceAll(markAttribute, ''),
    hashes: { scripts: [...scripts], styles: [...styles] },
  };
}
