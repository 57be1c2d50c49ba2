import { describe, expect, it } from 'vitest';
import { choosePaymentProvider, isLoopbackOrigin } from './choose-payment-provider.ts';

describe('isLoopbackOrigin', () => {
  it('knows the origins only this machine reaches', () => {
    for (const origin of [
      'http://localhost:3000',
      'http://app.localhost',
      'http://127.0.0.1:8080',
      'http://127.9.9.9',
      'http://[::1]:3000',
    ]) {
      expect(isLoopbackOrigin(origin), origin).toBe(true);
    }
    for (const origin of [
      'https://orgsmith.io',
      'http://localhost.example.com',
      'http://10.0.0.5',
      'http://[::2]',
      'http://128.0.0.1',
    ]) {
      expect(isLoopbackOrigin(origin), origin).toBe(false);
    }
  });
});

describe('choosePaymentProvider', () => {
  const keys = { STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' };

  it('keeps the quick start on the local provider without a notice', () => {
    expect(choosePaymentProvider({ PUBLIC_BASE_URL: 'http://localhost:3000' })).toEqual({
      provider: 'local',
      testModeNotice: false,
    });
  });

  it('refuses a public origin without Stripe keys, naming both', () => {
    const choice = choosePaymentProvider({ PUBLIC_BASE_URL: 'https://orgsmith.io' });
    expect(choice).toEqual({
      refused: expect.stringContaining('STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET'),
    });
    expect(
      choosePaymentProvider({
        PUBLIC_BASE_URL: 'https://orgsmith.io',
        STRIPE_SECRET_KEY: 'sk_live_x',
      }),
    ).toHaveProperty('refused');
    expect(
      choosePaymentProvider({ PUBLIC_BASE_URL: 'https://orgsmith.io', PAYMENT_PROVIDER: 'stripe' }),
    ).toHaveProperty('refused');
  });

  it('uses Stripe when keyed, and on loopback a key alone is enough', () => {
    expect(choosePaymentProvider({ PUBLIC_BASE_URL: 'https://orgsmith.io', ...keys })).toEqual({
      provider: 'stripe',
      testModeNotice: false,
    });
    expect(
      choosePaymentProvider({
        PUBLIC_BASE_URL: 'http://localhost:3000',
        STRIPE_SECRET_KEY: 'sk_test_x',
      }),
    ).toEqual({ provider: 'stripe', testModeNotice: false });
  });

  it('takes test payments anywhere when asked by name, and says so', () => {
    expect(
      choosePaymentProvider({
        PUBLIC_BASE_URL: 'https://staging.orgsmith.io',
        PAYMENT_PROVIDER: 'local',
      }),
    ).toEqual({ provider: 'local', testModeNotice: true });
    expect(
      choosePaymentProvider({
        PUBLIC_BASE_URL: 'https://orgsmith.io',
        PAYMENT_PROVIDER: 'local',
        ...keys,
      }),
    ).toEqual({ provider: 'local', testModeNotice: true });
  });
});
