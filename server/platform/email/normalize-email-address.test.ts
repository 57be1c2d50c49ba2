import { describe, expect, it } from 'vitest';
import { hashEmailAddress, normalizeEmailAddress } from './normalize-email-address.ts';

describe('normalizeEmailAddress', () => {
  it.each([
    ['  Jane.Doe@Example.COM ', 'jane.doe@example.com'],
    ['jane+trial@example.com', 'jane@example.com'],
    ['jane+a+b@example.com', 'jane@example.com'],
    ['J.a.n.e+x@gmail.com', 'jane@gmail.com'],
    ['jane.doe@googlemail.com', 'janedoe@gmail.com'],
    ['jane.doe@mail.gmail.com.evil.io', 'jane.doe@mail.gmail.com.evil.io'],
    ['+tag@example.com', '+tag@example.com'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeEmailAddress(input)).toBe(expected);
  });

  it('hashes addresses with the secret, never in clear', () => {
    const hash = hashEmailAddress('secret', 'jane@gmail.com');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashEmailAddress('other', 'jane@gmail.com')).not.toBe(hash);
  });
});
