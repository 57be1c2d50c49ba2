import Stripe from 'stripe';

export type { Stripe };

export interface StripeClientOptions {
  secretKey: string;
  /** Another API origin (tests point the real SDK at tests/support/stripe-fake.ts). */
  apiBaseUrl?: string | undefined;
}

/** The one place a Stripe client is made: everything else receives it. */
export function createStripeClient(options: StripeClientOptions): Stripe {
  const config: Stripe.StripeConfig = {
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'orgsmith-web' },
  };
  if (options.apiBaseUrl) {
    const url = new URL(options.apiBaseUrl);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    config.host = url.hostname;
    config.port = url.port || (protocol === 'http' ? 80 : 443);
    config.protocol = protocol;
  }
  return new Stripe(options.secretKey, config);
}
