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

export type SalesforceOrgIdReading =
  | { ok: true; id: string }
  | { ok: false; reason: 'format' }
  /** The shape of an org id, but the last three characters do not match the first 15's case. */
  | { ok: false; reason: 'checksum'; expected: string };

/**
 * Reads a Salesforce organization id: 15 or 18 characters, starting with the org key prefix 00D,
 * and for 18 characters a suffix that matches the case of the first 15. Gives the canonical
 * 18-character form, or why the text is not one (so the answer can name the checksum).
 */
export function readSalesforceOrgId(text: string): SalesforceOrgIdReading {
  if (!ORG_ID_PATTERN.test(text)) return { ok: false, reason: 'format' };
  const id15 = text.slice(0, 15);
  const expected = `${id15}${checksumOf(id15)}`;
  if (text.length === 18 && text.slice(15).toUpperCase() !== expected.slice(15)) {
    return { ok: false, reason: 'checksum', expected };
  }
  return { ok: true, id: expected };
}

/**
 * The canonical 18-character form of a Salesforce organization id, or undefined when the text is
 * not one. The same org sent in either form counts once.
 */
export function normalizeSalesforceOrgId(text: string): string | undefined {
  const reading = readSalesforceOrgId(text);
  return reading.ok ? reading.id : undefined;
}
