/**
 * Text a visitor typed, as an e-mail to an address nobody has confirmed may echo it (decision
 * 159): nothing a mail client would turn into a link (a URL, `www.…`, a domain name, an e-mail
 * address) and no control, bidi or zero-width characters survive. Returns undefined when nothing
 * is left, so the e-mail leaves the text out.
 */
export function visitorTextForEmail(text: string | null | undefined): string | undefined {
  if (!text) return undefined;
  const cleaned = text
    // Bidi overrides and isolates, zero-width marks: gone (so `evil\u200B.example` is caught).
    .replace(/\p{Cf}/gu, '')
    // Control characters and line breaks: a space.
    .replace(/[\p{Cc}\u2028\u2029]/gu, ' ')
    .split(/\s+/)
    .filter((word) => word !== '' && !looksLinkable(word))
    .join(' ')
    .trim();
  return cleaned === '' ? undefined : cleaned;
}

/** A scheme (`https:`, `mailto:`), `www.`, an `@`, or a dot between letters (`evil.example`). */
function looksLinkable(word: string): boolean {
  return (
    /[a-z][a-z0-9+.-]*:/i.test(word) ||
    /www\./i.test(word) ||
    word.includes('@') ||
    /[\p{L}\p{N}-][.。．｡][\p{L}\p{N}]/u.test(word) ||
    /[/\\]{2}/.test(word)
  );
}
