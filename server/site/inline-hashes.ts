import { createHash } from 'node:crypto';
import type { InlineHashes } from '../http/security-headers.ts';

const inlineScript = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const inlineStyle = /<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi;
/**
 * Data blocks (JSON-LD, JSON) are never run. Every other inline script is hashed, the inert
 * hydration block included: the loader runs its text as a module (decision 110).
 */
const dataType = /^\s*application\/(?:[\w.+-]+\+)?json\s*$/i;

const sha256 = (text: string) =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

function typeOf(attributes: string): string {
  return (
    /\btype\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attributes)?.slice(1).find(Boolean) ?? ''
  );
}

/**
 * The CSP hashes of a document's inline scripts and style elements: the browser hashes the text
 * between the tags exactly as sent, so this reads the very HTML that is served (decision 100).
 */
export function inlineHashes(html: string): InlineHashes {
  const scripts = new Set<string>();
  for (const [, attributes = '', body = ''] of html.matchAll(inlineScript)) {
    if (/\bsrc\s*=/i.test(attributes) || dataType.test(typeOf(attributes))) continue;
    scripts.add(sha256(body));
  }
  const styles = new Set<string>();
  for (const [, body = ''] of html.matchAll(inlineStyle)) styles.add(sha256(body));
  return { scripts: [...scripts], styles: [...styles] };
}
