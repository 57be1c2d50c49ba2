import { describe, expect, it } from 'vitest';
import { randomToken } from './random-token.ts';

describe('randomToken', () => {
  it('encodes the requested number of bytes', () => {
    expect(randomToken(16, 'base64')).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(randomToken(24, 'base64url')).toMatch(/^[\w-]{32}$/);
  });

  it('never hands out the same bytes twice, across refills of the pool', () => {
    // 4,000 × 24 bytes: the 4 KiB pool is refilled more than twenty times.
    const tokens = Array.from({ length: 4000 }, () => randomToken(24, 'base64url'));
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it('looks random: every byte value turns up, none far too often', () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 2000; i += 1) {
      for (const byte of Buffer.from(randomToken(32, 'base64url'), 'base64url')) counts[byte]! += 1;
    }
    // 64,000 bytes: 250 expected per value; a fair source stays well within 150–350.
    expect(Math.min(...counts)).toBeGreaterThan(150);
    expect(Math.max(...counts)).toBeLessThan(350);
  });

  it('refuses sizes it cannot serve', () => {
    expect(() => randomToken(0, 'base64')).toThrow(RangeError);
    expect(() => randomToken(4097, 'base64')).toThrow(RangeError);
    expect(() => randomToken(1.5, 'base64')).toThrow(RangeError);
  });
});
