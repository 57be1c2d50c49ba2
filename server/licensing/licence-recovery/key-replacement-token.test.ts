import { describe, expect, it } from 'vitest';
import {
  createKeyReplacementToken,
  readKeyReplacementToken,
  verifyKeyReplacementToken,
} from './key-replacement-token.ts';

const secret = 'test-secret-key-test-secret-key-0123456789';
const licence = { id: '0b6f5a3e-8a57-4bd9-9c3c-0f4d1a2b3c4d', keyHash: 'a'.repeat(64) };
const now = new Date('2026-01-15T10:00:00Z');

describe('key replacement tokens', () => {
  const token = createKeyReplacementToken(secret, licence, now);

  it('name their licence and verify for 24 hours', () => {
    expect(readKeyReplacementToken(token)).toEqual({
      licenceId: licence.id,
      expires: Date.parse('2026-01-16T10:00:00Z') / 1000,
    });
    expect(verifyKeyReplacementToken(secret, token, licence, now)).toBe(true);
    const later = new Date('2026-01-16T09:59:59Z');
    expect(verifyKeyReplacementToken(secret, token, licence, later)).toBe(true);
    const expired = new Date('2026-01-16T10:00:00Z');
    expect(verifyKeyReplacementToken(secret, token, licence, expired)).toBe(false);
  });

  it('stop working once the key was replaced', () => {
    const replaced = { ...licence, keyHash: 'b'.repeat(64) };
    expect(verifyKeyReplacementToken(secret, token, replaced, now)).toBe(false);
  });

  it('cannot be moved to another licence, extended or forged', () => {
    const other = { ...licence, id: '11111111-2222-3333-4444-555555555555' };
    expect(verifyKeyReplacementToken(secret, token, other, now)).toBe(false);
    const [id, expires, mac] = token.split('.');
    const extended = `${id}.${Number(expires) + 86400}.${mac}`;
    expect(verifyKeyReplacementToken(secret, extended, licence, now)).toBe(false);
    expect(verifyKeyReplacementToken('another-secret', token, licence, now)).toBe(false);
  });

  it('reject malformed text', () => {
    for (const text of ['', 'x.y.z', `${token}.`, token.replace(/\.[^.]+$/, '.short')]) {
      expect(
        readKeyReplacementToken(text) && verifyKeyReplacementToken(secret, text, licence, now),
      ).toBeFalsy();
    }
  });
});
