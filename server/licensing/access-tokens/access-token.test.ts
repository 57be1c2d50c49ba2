import { describe, expect, it } from 'vitest';
import {
  accessTokenHint,
  generateAccessToken,
  hashAccessToken,
  looksLikeAccessToken,
} from './access-token.ts';

describe('access tokens', () => {
  it('are random, recognisable and 256 bits strong', () => {
    const tokens = new Set(Array.from({ length: 200 }, generateAccessToken));
    expect(tokens.size).toBe(200);
    for (const token of tokens) {
      expect(token).toMatch(/^orgsmith_at_[A-Za-z0-9_-]{43}$/);
      expect(looksLikeAccessToken(token)).toBe(true);
      expect(Buffer.from(token.slice('orgsmith_at_'.length), 'base64url')).toHaveLength(32);
    }
  });

  it('rejects other shapes before any look-up', () => {
    const token = generateAccessToken();
    expect(looksLikeAccessToken(`${token}x`)).toBe(false);
    expect(looksLikeAccessToken(token.slice(1))).toBe(false);
    expect(looksLikeAccessToken('ORGS-0000-0000-0000-0000-0000-0000-0000')).toBe(false);
    expect(looksLikeAccessToken(` ${token}`)).toBe(false);
  });

  it('are stored as a keyed hash that depends on the secret', () => {
    const token = generateAccessToken();
    const hash = hashAccessToken('secret-one', token);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(token.slice(12));
    expect(hashAccessToken('secret-one', token)).toBe(hash);
    expect(hashAccessToken('secret-two', token)).not.toBe(hash);
    expect(accessTokenHint(token)).toBe(token.slice(-4));
  });
});
