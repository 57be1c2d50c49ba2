import { describe, expect, it } from 'vitest';
import { normalizeSalesforceOrgId, readSalesforceOrgId } from './salesforce-org-id.ts';

describe('normalizeSalesforceOrgId', () => {
  it('extends a 15-character id with its case checksum', () => {
    expect(normalizeSalesforceOrgId('00D000000000062')).toBe('00D000000000062EAA');
    expect(normalizeSalesforceOrgId('00D5g000004XyZ1')).toBe('00D5g000004XyZ1EAK');
  });

  it('accepts an 18-character id whose suffix matches, in either case', () => {
    expect(normalizeSalesforceOrgId('00D5g000004XyZ1EAK')).toBe('00D5g000004XyZ1EAK');
    expect(normalizeSalesforceOrgId('00D5g000004XyZ1eak')).toBe('00D5g000004XyZ1EAK');
  });

  it('treats ids differing only in case as different orgs (15 characters are case-sensitive)', () => {
    expect(normalizeSalesforceOrgId('00D5g000004xyz1')).not.toBe(
      normalizeSalesforceOrgId('00D5g000004XyZ1'),
    );
  });

  it.each([
    ['a wrong suffix', '00D5g000004XyZ1AAA'],
    ['another key prefix', '0015g000004XyZ1'],
    ['16 characters', '00D5g000004XyZ1E'],
    ['14 characters', '00D5g000004XyZ'],
    ['punctuation', '00D5g000004X-Z1'],
    ['an empty string', ''],
    ['surrounding spaces', ' 00D5g000004XyZ1'],
  ])('rejects %s', (_case, text) => {
    expect(normalizeSalesforceOrgId(text)).toBeUndefined();
  });
});

describe('readSalesforceOrgId', () => {
  it('tells a wrong checksum from a wrong shape, and gives the id that fits', () => {
    // The API reference's old example: right shape, wrong suffix.
    expect(readSalesforceOrgId('00D5g000004ABCDEAA')).toEqual({
      ok: false,
      reason: 'checksum',
      expected: '00D5g000004ABCDEA4',
    });
    expect(readSalesforceOrgId('00D5g000004ABCDEA4')).toEqual({
      ok: true,
      id: '00D5g000004ABCDEA4',
    });
    expect(readSalesforceOrgId('0015g000004ABCDEA4')).toEqual({ ok: false, reason: 'format' });
    expect(readSalesforceOrgId('00D5g000004ABCDE')).toEqual({ ok: false, reason: 'format' });
  });
});
