import { describe, expect, it } from 'vitest';
import { maskAddressesIn, maskEmailAddress } from './mask-address.ts';

describe('maskEmailAddress', () => {
  it('keeps the first character and the domain', () => {
    expect(maskEmailAddress('jane.doe+trial@example.com')).toBe('j***@example.com');
    expect(maskEmailAddress('x@example.com')).toBe('x***@example.com');
  });

  it('shows nothing of something that is not an address', () => {
    expect(maskEmailAddress('no-address')).toBe('***');
    expect(maskEmailAddress('@example.com')).toBe('***');
  });
});

describe('maskAddressesIn', () => {
  it('masks every address in a relay’s answer', () => {
    expect(
      maskAddressesIn('550 5.1.1 <jane.doe@example.com>: Recipient rejected (bob@example.org)'),
    ).toBe('550 5.1.1 <j***@example.com>: Recipient rejected (b***@example.org)');
    expect(maskAddressesIn('connect ECONNREFUSED 127.0.0.1:25')).toBe(
      'connect ECONNREFUSED 127.0.0.1:25',
    );
  });
});
