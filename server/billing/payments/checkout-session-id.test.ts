import { describe, expect, it } from 'vitest';
import { isCheckoutSessionId } from './checkout-session-id.ts';
import { localId } from './local/local-payment-repository.ts';

describe('isCheckoutSessionId', () => {
  it("accepts Stripe's test and live session ids, and lengths Stripe may move to", () => {
    for (const id of [
      'cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ0123456789abcdefghijklmnop',
      'cs_live_b1Lh7T6Q3ZqTm9',
      `cs_test_${'9'.repeat(247)}`,
    ]) {
      expect(isCheckoutSessionId('stripe', id), id).toBe(true);
    }
  });

  it('refuses for Stripe what Stripe never issues', () => {
    for (const id of [
      null,
      undefined,
      '',
      'cs_test',
      'cs_short',
      `cs_test_${'9'.repeat(248)}`,
      'pi_1234567890abcdef',
      'CS_TEST_1234567890',
      'cs_test_abc/../v1/customers',
      'cs_test_abc?expand[]=x',
      'cs_test_abc-def-ghi',
      'cs_test_äöü1234567',
      ' cs_test_1234567890',
      localId('lcs'),
    ]) {
      expect(isCheckoutSessionId('stripe', id), String(id)).toBe(false);
    }
  });

  it("accepts exactly the local provider's own session ids", () => {
    for (let i = 0; i < 50; i++) expect(isCheckoutSessionId('local', localId('lcs'))).toBe(true);
    for (const id of [
      localId('lps'),
      localId('lsub'),
      'lcs_unknown_session',
      `${localId('lcs')}x`,
      'cs_test_a1B2c3D4e5F6g7H8i9J0',
    ]) {
      expect(isCheckoutSessionId('local', id), id).toBe(false);
    }
  });
});
