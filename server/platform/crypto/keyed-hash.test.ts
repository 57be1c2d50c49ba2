import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyedHash, keyedHashPurposes, type KeyedHashPurpose } from './keyed-hash.ts';

const secretKey = 'keyed-hash-test-secret-0123456789abcdef';
const purposes = Object.keys(keyedHashPurposes).filter(
  (name): name is KeyedHashPurpose => name in keyedHashPurposes,
);

describe('keyedHash', () => {
  it('is HMAC-SHA256 of `<purpose>:<value>` in the purpose’s encoding', () => {
    for (const purpose of purposes) {
      const expected = createHmac('sha256', secretKey)
        .update(`${purpose}:jörg@example.com`, 'utf8')
        .digest(keyedHashPurposes[purpose]);
      expect(keyedHash(secretKey, purpose, 'jörg@example.com'), purpose).toBe(expected);
    }
  });

  it('keeps the encodings stored rows and sent links were made with', () => {
    expect(keyedHashPurposes).toEqual({
      email: 'hex',
      'licence-key': 'hex',
      'access-token': 'hex',
      'quote-token': 'base64url',
      'invoice-order-token': 'base64url',
      'rate-limit': 'base64url',
      'billing-portal-token': 'base64url',
      'licence-key-replacement': 'base64url',
      'keep-trial-key': 'base64url',
      'privacy-request': 'hex',
      'payment-document': 'base64url',
      'licence-page-code': 'base64url',
      'licence-page-link': 'base64url',
      'licence-page-session': 'base64url',
      'operator-enrolment': 'base64url',
      'console-session': 'base64url',
    });
    expect(keyedHash(secretKey, 'email', 'a')).toMatch(/^[0-9a-f]{64}$/);
    expect(keyedHash(secretKey, 'quote-token', 'a')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('gives one value a different hash for each purpose and each secret', () => {
    const hashes = purposes.map((purpose) => keyedHash(secretKey, purpose, 'same value'));
    expect(new Set(hashes).size).toBe(purposes.length);
    expect(keyedHash(`${secretKey}x`, 'email', 'a')).not.toBe(keyedHash(secretKey, 'email', 'a'));
  });
});
