import { describe, expect, it } from 'vitest';
import { KEEP_TRIAL_LINK_DAYS } from '#shared/contracts/keep-trial-key.ts';
import { createKeepTrialToken, keepTrialUrl, verifyKeepTrialToken } from './keep-trial-link.ts';

const secretKey = 'keep-trial-link-test-secret-0123456789abcdef';
const now = new Date('2026-05-04T09:00:00Z');
const link = {
  provider: 'stripe' as const,
  subscriptionId: 'sub_123',
  trialLicenceId: '0b9f4c1e-8a51-4d7e-9f52-2f7d6a0c1b11',
  issuedLicenceId: '5d2e7f4a-1c3b-4e6d-8a9f-0b1c2d3e4f50',
};

describe('the keep-your-trial-key link (decision 213)', () => {
  it('reads back what it was made with until it expires', () => {
    const token = createKeepTrialToken(secretKey, link, now);
    expect(verifyKeepTrialToken(secretKey, token, now)).toMatchObject(link);
    const lastSecond = new Date(now.getTime() + KEEP_TRIAL_LINK_DAYS * 86_400_000 - 1000);
    expect(verifyKeepTrialToken(secretKey, token, lastSecond)).toMatchObject(link);
    const expired = new Date(now.getTime() + KEEP_TRIAL_LINK_DAYS * 86_400_000);
    expect(verifyKeepTrialToken(secretKey, token, expired)).toBeUndefined();
  });

  it('refuses another secret, a changed payload and malformed text', () => {
    const token = createKeepTrialToken(secretKey, link, now);
    expect(verifyKeepTrialToken(`${secretKey}x`, token, now)).toBeUndefined();
    const [payload = '', signature = ''] = token.split('.');
    const changed = Buffer.from(
      Buffer.from(payload, 'base64url').toString('utf8').replace('sub_123', 'sub_999'),
    ).toString('base64url');
    expect(verifyKeepTrialToken(secretKey, `${changed}.${signature}`, now)).toBeUndefined();
    for (const text of ['', '.', 'abc', `${token}.x`, `${payload}.`]) {
      expect(verifyKeepTrialToken(secretKey, text, now)).toBeUndefined();
    }
  });

  it('is the site page’s link, the token in its query', () => {
    const token = createKeepTrialToken(secretKey, link, now);
    const url = new URL(keepTrialUrl('https://orgsmith.test', token));
    expect(url.pathname).toBe('/keep-trial-key');
    expect(url.searchParams.get('token')).toBe(token);
  });
});
