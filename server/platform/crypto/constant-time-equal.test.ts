import { describe, expect, it } from 'vitest';
import { constantTimeEqual } from './constant-time-equal.ts';

describe('constantTimeEqual', () => {
  it('is true only for the same text', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('', '')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'ABC')).toBe(false);
  });

  it('refuses other lengths without throwing, as timingSafeEqual alone would', () => {
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual('', 'a')).toBe(false);
    expect(constantTimeEqual('a'.repeat(10_000), 'a')).toBe(false);
  });

  it('compares the UTF-8 text, not the UTF-16 length', () => {
    expect(constantTimeEqual('ö', 'ö')).toBe(true);
    expect(constantTimeEqual('ö', 'o\u0308')).toBe(false);
  });
});
