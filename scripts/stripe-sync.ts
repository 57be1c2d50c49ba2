import { parseEnv } from '../server/env.ts';
import { createStripeClient } from '../server/payments/stripe/stripe-client.ts';
import { syncStripeCatalog } from '../server/payments/stripe/sync-stripe-catalog.ts';

/**
 * `npm run stripe:sync`: creates or updates the Stripe products and prices from the pricing
 * engine (decision 060). Safe to run again at any time; it changes only what differs.
 */
async function main(): Promise<void> {
  const env = parseEnv();
  if (!env.STRIPE_SECRET_KEY) {
    console.error(
      'STRIPE_SECRET_KEY is not set: nothing to sync (the local provider needs no catalogue).',
    );
    process.exit(1);
  }
  const stripe = createStripeClient({
    secretKey: env.STRIPE_SECRET_KEY,
    apiBaseUrl: env.STRIPE_API_BASE_URL,
  });
  const report = await syncStripeCatalog(stripe);
  for (const product of report.products) console.log(`product ${product.id}: ${product.outcome}`);
  for (const price of report.prices) {
    console.log(`price ${price.lookupKey} (${price.priceId}): ${price.outcome}`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
