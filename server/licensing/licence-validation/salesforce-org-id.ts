const CHECKSUM_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ012345';
const ORG_ID_PATTERN = /^00D[A-Za-z0-9]{12}(?:[A-Za-z0-5]{3})?$/;

/** The three-character suffix that makes a case-sensitive 15-character id case-insensitive. */
function checksumOf(id15: string): string {
  let suffix = '';
  for (let chunk = 0; chunk < 3; chunk++) {
    let bits = 0;
    for (let i = 0; i < 5; i++) {
      const char = id15.charAt(chunk * 5 + i);
      if (char >= 'A' && char <= 'Z') bits |= 1 << i;
    }
    suffix += CHECKSUM_ALPHABET.charAt(bits);
  }
  return suffix;
}

/**
 * The canonical 18-character form of a Salesforce organization id, or undefined when the text is
 * not one: 15 or 18 characters, starting with the org key prefix 00D, and for 18 characters a
 * suffix that matches the case of the first 15. The same org sent in either form counts once.
 */
export function normalizeSalesforceOrgId(text: string): string | undefined {
  if (!ORG_ID_PATTERN.test(text)) return undefined;
  const id15 = text.slice(0, 15);
  const suffix = checksumOf(id15);
  if (text.length === 18 && text.slice(15).toUpperCase() !== suffix) return undefined;
  return `${id15}${suffix}`;
}
