/**
 * Text a visitor typed, as a document mailed to an address nobody has confirmed prints it
 * (decision 208): a PDF viewer links `https://…`, `www.…`, e-mail addresses and bare domains
 * (`evil.example/x`) on its own, so in such a word the characters that make it a link are
 * bracketed — `https[:]//evil[.]example/po`, `Booking[.]com` — and the text stays readable.
 * Control characters and line breaks become spaces; format characters (bidi overrides,
 * zero-width marks) are dropped, so `evil\u200B.example` is caught too.
 */
export function linklessVisitorText(text: string): string {
  return text
    .replace(/\p{Cf}/gu, '')
    .replace(/[\p{Cc}\u2028\u2029]/gu, ' ')
    .replace(/\S+/gu, (word) => (looksLinkable(word) ? defang(word) : word));
}

/** Full stops as viewers read them (ASCII and the CJK and full-width ones). */
const DOT = '[.。．｡]';
const SCHEME = /[a-z][a-z0-9+.-]*:\/\/|\b(?:mailto|tel|sms|callto|javascript|data|file|news):/i;
/** A dot before a top-level-domain-like run of two letters: `Booking.com`, not `B.V.` or `1.5`. */
const DOMAIN = new RegExp(`[\\p{L}\\p{N}-]${DOT}\\p{L}{2}`, 'u');

function looksLinkable(word: string): boolean {
  return SCHEME.test(word) || /www\./i.test(word) || word.includes('@') || DOMAIN.test(word);
}

function defang(word: string): string {
  return word
    .replace(new RegExp(`${DOT}(?=[\\p{L}\\p{N}])`, 'gu'), '[.]')
    .replaceAll(':', '[:]')
    .replaceAll('@', '[@]');
}
