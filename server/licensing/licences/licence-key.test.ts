import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  generateLicenceKey,
  hashLicenceKey,
  licenceKeyHint,
  parseLicenceKey,
} from './licence-key.ts';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const symbolsOf = (key: string) => key.slice(5).replaceAll('-', '').split('');
const keyOf = (symbols: string[]) => parseLicenceKey(`ORGS${symbols.join('')}`);
const seededKey = fc
  .array(fc.integer({ min: 0, max: 31 }), { minLength: 26, maxLength: 26 })
  .map((values) => {
    let index = 0;
    return generateLicenceKey(() => values[index++] ?? 0);
  });

describe('licence keys', () => {
  it('look like ORGS- and seven groups of four Crockford symbols', () => {
    const key = generateLicenceKey();
    expect(key).toMatch(/^ORGS(-[0-9A-HJKMNP-TV-Z]{4}){7}$/);
    expect(parseLicenceKey(key)).toEqual({ ok: true, key });
  });

  it('carry at least 128 random bits', () => {
    expect(26 * Math.log2(32)).toBeGreaterThanOrEqual(128);
    const keys = new Set(Array.from({ length: 2000 }, () => generateLicenceKey()));
    expect(keys.size).toBe(2000);
  });

  it('read back as typed: lower case, spaces, O for 0, I and L for 1', () => {
    fc.assert(
      fc.property(seededKey, (key) => {
        const sloppy = key
          .toLowerCase()
          .replaceAll('-', ' ')
          .replaceAll('0', 'o')
          .replaceAll('1', 'l');
        expect(parseLicenceKey(` ${sloppy} `)).toEqual({ ok: true, key });
      }),
    );
  });

  it('catch every single mistyped symbol', () => {
    fc.assert(
      fc.property(
        seededKey,
        fc.integer({ min: 0, max: 27 }),
        fc.integer({ min: 1, max: 31 }),
        (key, position, shift) => {
          const symbols = symbolsOf(key);
          const original = ALPHABET.indexOf(symbols[position] ?? '');
          symbols[position] = ALPHABET[(original + shift) % 32] ?? '';
          expect(keyOf(symbols)).toEqual({ ok: false, reason: 'ChecksumMismatch' });
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('catch every swap of two neighbouring symbols', () => {
    fc.assert(
      fc.property(seededKey, fc.integer({ min: 0, max: 26 }), (key, position) => {
        const symbols = symbolsOf(key);
        const [a, b] = [symbols[position] ?? '', symbols[position + 1] ?? ''];
        fc.pre(a !== b);
        symbols[position] = b;
        symbols[position + 1] = a;
        expect(keyOf(symbols)).toEqual({ ok: false, reason: 'ChecksumMismatch' });
      }),
      { numRuns: 2000 },
    );
  });

  it('reject other products, wrong lengths and foreign characters', () => {
    const key = generateLicenceKey();
    expect(parseLicenceKey(key.replace('ORGS', 'ACME'))).toEqual({
      ok: false,
      reason: 'Malformed',
    });
    expect(parseLicenceKey(key.slice(0, -1))).toEqual({ ok: false, reason: 'Malformed' });
    expect(parseLicenceKey(`${key.slice(0, -1)}U`)).toEqual({ ok: false, reason: 'Malformed' });
    expect(parseLicenceKey('')).toEqual({ ok: false, reason: 'Malformed' });
  });

  it('are stored as a keyed hash that depends on the secret', () => {
    const key = generateLicenceKey();
    const hash = hashLicenceKey('secret-one', key);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(key);
    expect(hashLicenceKey('secret-one', key)).toBe(hash);
    expect(hashLicenceKey('secret-two', key)).not.toBe(hash);
    expect(licenceKeyHint(key)).toBe(key.slice(-4));
  });
});
