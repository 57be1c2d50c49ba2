import { randomInt } from 'node:crypto';
import { keyedHash } from '#server/platform/crypto/keyed-hash.ts';

/**
 * Licence keys: `ORGS-` then 28 Crockford base32 symbols in groups of four. 26 symbols are random
 * (130 bits); the last two are a CRC-10 of them, which catches every single mistyped symbol and
 * every swap of neighbouring symbols (any error burst of up to 10 bits). See decision 050.
 */
export const LICENCE_KEY_PREFIX = 'ORGS';
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const RANDOM_SYMBOLS = 26;
const CHECK_SYMBOLS = 2;
const GROUP = 4;
/** x^10 + x^9 + x^5 + x^4 + x + 1 (CRC-10/ATM); its constant term makes it catch all short bursts. */
const CRC10_POLY = 0x233;

/** Crockford's decoding: case-insensitive, with the easily confused letters mapped to digits. */
const confusables: Record<string, string> = { O: '0', I: '1', L: '1' };

function crc10(symbols: number[]): number {
  let crc = 0x3ff;
  for (const symbol of symbols) {
    for (let bit = 4; bit >= 0; bit--) {
      const incoming = (symbol >> bit) & 1;
      const top = (crc >> 9) & 1;
      crc = (crc << 1) & 0x3ff;
      if (top ^ incoming) crc ^= CRC10_POLY & 0x3ff;
    }
  }
  return crc;
}

function checkSymbols(payload: number[]): number[] {
  const crc = crc10(payload);
  return [crc >> 5, crc & 0x1f];
}

/** Validation formats a key per request, so this avoids building arrays and regular expressions. */
function format(symbols: number[]): string {
  let text = LICENCE_KEY_PREFIX;
  symbols.forEach((value, index) => {
    text += (index % GROUP === 0 ? '-' : '') + (ALPHABET[value] ?? '');
  });
  return text;
}

/** A new random licence key in its canonical form. */
export function generateLicenceKey(random: (max: number) => number = (max) => randomInt(max)) {
  const payload = Array.from({ length: RANDOM_SYMBOLS }, () => random(ALPHABET.length));
  return format([...payload, ...checkSymbols(payload)]);
}

export type ParsedLicenceKey =
  { ok: true; key: string } | { ok: false; reason: 'Malformed' | 'ChecksumMismatch' };

/**
 * Reads a key as a person may type it (any case, spaces or hyphens anywhere, O for 0, I or L for
 * 1) and returns its canonical form, or why it cannot be a key.
 */
export function parseLicenceKey(input: string): ParsedLicenceKey {
  const compact = input.toUpperCase().replace(/[\s-]/g, '');
  if (!compact.startsWith(LICENCE_KEY_PREFIX)) return { ok: false, reason: 'Malformed' };
  const body = compact.slice(LICENCE_KEY_PREFIX.length);
  if (body.length !== RANDOM_SYMBOLS + CHECK_SYMBOLS) return { ok: false, reason: 'Malformed' };
  const symbols: number[] = [];
  for (const char of body) {
    const value = ALPHABET.indexOf(confusables[char] ?? char);
    if (value < 0) return { ok: false, reason: 'Malformed' };
    symbols.push(value);
  }
  const payload = symbols.slice(0, RANDOM_SYMBOLS);
  const expected = checkSymbols(payload);
  if (expected[0] !== symbols[RANDOM_SYMBOLS] || expected[1] !== symbols[RANDOM_SYMBOLS + 1]) {
    return { ok: false, reason: 'ChecksumMismatch' };
  }
  return { ok: true, key: format(symbols) };
}

/** What the database keeps instead of the key: an HMAC under the instance secret. */
export function hashLicenceKey(secretKey: string, canonicalKey: string): string {
  return keyedHash(secretKey, 'licence-key', canonicalKey);
}

/** The last group of a key, kept so support can tell a customer's keys apart. */
export function licenceKeyHint(canonicalKey: string): string {
  return canonicalKey.slice(-GROUP);
}
