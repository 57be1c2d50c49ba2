import { describe, expect, it } from 'vitest';
import { keyedHash } from './keyed-hash.ts';
import {
  createLinkToken,
  LINK_TOKEN_PATTERN,
  signLink,
  verifyLinkSignature,
} from './link-token.ts';

const secretKey = 'link-token-test-secret-0123456789abcdef';

describe('stored link tokens', () => {
  it('are 32 base64url characters, a new one each time', () => {
    const tokens = Array.from({ length: 50 }, () => createLinkToken());
    for (const token of tokens) expect(token).toMatch(LINK_TOKEN_PATTERN);
    expect(new Set(tokens).size).toBe(tokens.length);
    expect(LINK_TOKEN_PATTERN.test(`${tokens[0] ?? ''}x`)).toBe(false);
    expect(LINK_TOKEN_PATTERN.test('a'.repeat(31) + '=')).toBe(false);
  });
});

describe('signed links', () => {
  it('are signed with the keyed hash of their purpose', () => {
    expect(signLink(secretKey, 'billing-portal-token', 'payload')).toBe(
      keyedHash(secretKey, 'billing-portal-token', 'payload'),
    );
    expect(signLink(secretKey, 'billing-portal-token', 'payload')).not.toBe(
      signLink(secretKey, 'licence-key-replacement', 'payload'),
    );
  });

  it('verify only their own text, purpose and secret', () => {
    const signature = signLink(secretKey, 'licence-key-replacement', 'id:1:hash');
    expect(verifyLinkSignature(secretKey, 'licence-key-replacement', 'id:1:hash', signature)).toBe(
      true,
    );
    expect(verifyLinkSignature(secretKey, 'licence-key-replacement', 'id:2:hash', signature)).toBe(
      false,
    );
    expect(verifyLinkSignature(secretKey, 'billing-portal-token', 'id:1:hash', signature)).toBe(
      false,
    );
    expect(verifyLinkSignature('other', 'licence-key-replacement', 'id:1:hash', signature)).toBe(
      false,
    );
    expect(
      verifyLinkSignature(secretKey, 'licence-key-replacement', 'id:1:hash', signature.slice(1)),
    ).toBe(false);
    expect(verifyLinkSignature(secretKey, 'licence-key-replacement', 'id:1:hash', '')).toBe(false);
  });
});
