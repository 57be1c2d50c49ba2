import type { Database } from '#server/platform/db/database.ts';
import type { Logger } from '#server/platform/logger.ts';
import { createLocalPaymentProvider } from './local/local-payment-provider.ts';
import type { PaymentProvider } from '../subscriptions/payment-provider.ts';
import type { PaymentChoice } from './choose-payment-provider.ts';

/** The settings that pick and configure the card payment provider. */
export interface PaymentSettings {
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_API_BASE_URL?: string;
  PUBLIC_BASE_URL: string;
  payments: PaymentChoice;
}

/**
 * The provider the environment chose (`env.payments`, decision 126). The Stripe SDK (about 35 MB
 * once loaded) is imported only when Stripe is the provider (decision 135).
 */
export async function createPaymentProvider(options: {
  env: PaymentSettings;
  db: Database;
  clock: () => Date;
  logger: Logger;
}): Promise<PaymentProvider> {
  const { env } = options;
  if (env.payments.provider === 'local' || !env.STRIPE_SECRET_KEY) {
    options.logger.info('payments: local provider, TEST MODE pages');
    return createLocalPaymentProvider({
      db: options.db,
      clock: options.clock,
      publicBaseUrl: env.PUBLIC_BASE_URL,
    });
  }
  if (!env.STRIPE_WEBHOOK_SECRET) {
    options.logger.warn('payments: STRIPE_WEBHOOK_SECRET is not set, every webhook is refused');
  }
  const [{ createStripeClient }, { createStripePaymentProvider }] = await Promise.all([
    import('./stripe/stripe-client.ts'),
    import('./stripe/stripe-payment-provider.ts'),
  ]);
  const stripe = createStripeClient({
    secretKey: env.STRIPE_SECRET_KEY,
    apiBaseUrl: env.STRIPE_API_BASE_URL,
  });
  return createStripePaymentProvider({ stripe, webhookSecret: env.STRIPE_WEBHOOK_SECRET });
}
