import { isIP } from 'node:net';

export type PaymentProviderName = 'stripe' | 'local';

export interface PaymentChoice {
  provider: PaymentProviderName;
  /**
   * Test payments were asked for on purpose (`PAYMENT_PROVIDER=local`): every page then says so,
   * because the built-in provider's test cards buy real licences (decision 126).
   */
  testModeNotice: boolean;
}

/** `localhost`, `*.localhost`, 127.0.0.0/8 and `::1`: origins nobody else can reach. */
export function isLoopbackOrigin(origin: string): boolean {
  const host = new URL(origin).hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return isIP(host) === 6 && host === '::1';
}

/**
 * Which payment provider serves checkout (decision 126). Stripe when asked for or when its key is
 * set; the built-in TEST-MODE provider on a loopback origin, or anywhere when asked for by name.
 * Returns the reason as a message when the combination would sell through test cards in public
 * or through a Stripe account whose events never arrive.
 */
export function choosePaymentProvider(env: {
  PAYMENT_PROVIDER?: PaymentProviderName | undefined;
  STRIPE_SECRET_KEY?: string | undefined;
  STRIPE_WEBHOOK_SECRET?: string | undefined;
  PUBLIC_BASE_URL: string;
}): PaymentChoice | { refused: string } {
  const loopback = isLoopbackOrigin(env.PUBLIC_BASE_URL);
  if (env.PAYMENT_PROVIDER === 'local') return { provider: 'local', testModeNotice: true };
  const wantsStripe = env.PAYMENT_PROVIDER === 'stripe' || Boolean(env.STRIPE_SECRET_KEY);
  if (!wantsStripe && loopback) return { provider: 'local', testModeNotice: false };
  if (!env.STRIPE_SECRET_KEY || (!loopback && !env.STRIPE_WEBHOOK_SECRET)) {
    return {
      refused:
        `STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are required to take payments on ${env.PUBLIC_BASE_URL}` +
        ' (set PAYMENT_PROVIDER=local to take test payments there on purpose)',
    };
  }
  return { provider: 'stripe', testModeNotice: false };
}
