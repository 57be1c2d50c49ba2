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
      loopbackOnly: true,
    });
    expect(
      choosePaymentProvider({ PUBLIC_BASE_URL: 'http://localhost:3000', HOST: '::1' }),
    ).toMatchObject({ provider: 'local', loopbackOnly: true });
  });

  it('refuses a HOST beyond loopback without Stripe keys, naming the ways out', () => {
    for (const HOST of ['0.0.0.0', '::', '192.0.2.2']) {
      const choice = choosePaymentProvider({ PUBLIC_BASE_URL: 'http://localhost:3000', HOST });
      expect(choice, HOST).toEqual({
        refused: expect.stringContaining(
          `STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are required to take payments when listening on HOST=${HOST}`,
        ),
      });
      expect(choice, HOST).toHaveProperty(
        'refused',
        expect.stringContaining('PAYMENT_PROVIDER=local'),
      );
      expect(choice, HOST).toHaveProperty('refused', expect.stringContaining('leave HOST unset'));
    }
    expect(
      choosePaymentProvider({
        PUBLIC_BASE_URL: 'http://localhost:3000',
        HOST: '0.0.0.0',
        STRIPE_SECRET_KEY: 'sk_test_x',
      }),
    ).toHaveProperty('refused');
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

  it('uses Stripe when keyed, and on loopback a key alone chooses it (a server start then refuses it, decision 206)', () => {
    expect(choosePaymentProvider({ PUBLIC_BASE_URL: 'https://orgsmith.io', ...keys })).toEqual({
      provider: 'stripe',
      testModeNotice: false,
      loopbackOnly: false,
    });
    expect(
      choosePaymentProvider({ PUBLIC_BASE_URL: 'http://localhost:3000', HOST: '0.0.0.0', ...keys }),
    ).toEqual({ provider: 'stripe', testModeNotice: false, loopbackOnly: false });
    expect(
      choosePaymentProvider({
        PUBLIC_BASE_URL: 'http://localhost:3000',
        STRIPE_SECRET_KEY: 'sk_test_x',
      }),
    ).toEqual({ provider: 'stripe', testModeNotice: false, loopbackOnly: false });
  });

  it('takes test payments anywhere when asked by name, and says so', () => {
    expect(
      choosePaymentProvider({
        PUBLIC_BASE_URL: 'https://staging.orgsmith.io',
        PAYMENT_PROVIDER: 'local',
      }),
    ).toEqual({ provider: 'local', testModeNotice: true, loopbackOnly: false });
    expect(
      choosePaymentProvider({
        PUBLIC_BASE_URL: 'https://orgsmith.io',
        PAYMENT_PROVIDER: 'local',
        ...keys,
      }),
    ).toEqual({ provider: 'local', testModeNotice: true, loopbackOnly: false });
    expect(
      choosePaymentProvider({
        PUBLIC_BASE_URL: 'http://localhost:3000',
        PAYMENT_PROVIDER: 'local',
        HOST: '0.0.0.0',
      }),
    ).toEqual({ provider: 'local', testModeNotice: true, loopbackOnly: false });
  });
});
