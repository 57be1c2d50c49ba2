import { createHash } from 'node:crypto';
import type Stripe from 'stripe';
import {
  stripePriceDefinitions,
  stripeProductDefinitions,
  type PriceModel,
  type StripePriceDefinition,
  type StripeProductDefinition,
} from './stripe-price-catalog.ts';

export type SyncOutcome = 'created' | 'updated' | 'unchanged';

export interface CatalogSyncReport {
  /** A dry run: the outcomes say what a sync would do, and nothing was written. */
  dryRun: boolean;
  products: Array<{ id: string; outcome: SyncOutcome }>;
  /**
   * `priceId`: the price now carrying the lookup key; on a dry run the one there today (`null`
   * when the price would be created).
   */
  prices: Array<{ lookupKey: string; priceId: string | null; outcome: SyncOutcome }>;
}

export interface SyncOptions {
  /** Read Stripe and report what would change; create, update and archive nothing. */
  dryRun?: boolean;
}

function isMissing(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && 'statusCode' in error && error.statusCode === 404
  );
}

async function syncProduct(
  stripe: Stripe,
  product: StripeProductDefinition,
  { dryRun = false }: SyncOptions,
): Promise<SyncOutcome> {
  const metadata = { edition: product.edition };
  let existing: Stripe.Product | undefined;
  try {
    existing = await stripe.products.retrieve(product.id);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  if (!existing) {
    if (dryRun) return 'created';
    await stripe.products.create(
      { id: product.id, name: product.name, description: product.description, metadata },
      { idempotencyKey: `stripe-sync-product-${product.id}` },
    );
    return 'created';
  }
  if (
    existing.name === product.name &&
    existing.description === product.description &&
    existing.active &&
    existing.metadata.edition === product.edition
  ) {
    return 'unchanged';
  }
  if (dryRun) return 'updated';
  await stripe.products.update(product.id, {
    name: product.name,
    description: product.description,
    active: true,
    metadata,
  });
  return 'updated';
}

/** Whether a Stripe price bills exactly what the definition says (prices are immutable). */
export function priceMatches(price: Stripe.Price, definition: StripePriceDefinition): boolean {
  const productId = typeof price.product === 'string' ? price.product : price.product.id;
  if (
    !price.active ||
    productId !== definition.productId ||
    price.currency !== definition.currency.toLowerCase() ||
    price.recurring?.interval !== definition.interval ||
    price.billing_scheme !== definition.model.scheme
  ) {
    return false;
  }
  const model: PriceModel = definition.model;
  if (model.scheme === 'per_unit') return price.unit_amount === model.unitAmount;
  const tiers = price.tiers ?? [];
  return (
    price.tiers_mode === 'graduated' &&
    tiers.length === model.tiers.length &&
    model.tiers.every((tier, index) => {
      const actual = tiers[index];
      return (
        actual !== undefined &&
        (actual.up_to ?? null) === tier.upTo &&
        (actual.flat_amount ?? 0) === tier.flatAmount &&
        (actual.unit_amount ?? 0) === tier.unitAmount
      );
    })
  );
}

function priceParams(definition: StripePriceDefinition): Stripe.PriceCreateParams {
  const params: Stripe.PriceCreateParams = {
    product: definition.productId,
    currency: definition.currency.toLowerCase(),
    recurring: { interval: definition.interval, usage_type: 'licensed' },
    lookup_key: definition.lookupKey,
    transfer_lookup_key: true,
    nickname: `${definition.edition} ${definition.billingPeriod} ${definition.currency}`,
    metadata: {
      edition: definition.edition,
      billing_period: definition.billingPeriod,
      currency: definition.currency,
    },
  };
  if (definition.model.scheme === 'per_unit') {
    params.billing_scheme = 'per_unit';
    params.unit_amount = definition.model.unitAmount;
  } else {
    params.billing_scheme = 'tiered';
    params.tiers_mode = 'graduated';
    params.tiers = definition.model.tiers.map((tier) => ({
      up_to: tier.upTo ?? 'inf',
      flat_amount: tier.flatAmount,
      unit_amount: tier.unitAmount,
    }));
  }
  return params;
}

async function syncPrice(
  stripe: Stripe,
  definition: StripePriceDefinition,
  { dryRun = false }: SyncOptions,
): Promise<{ priceId: string | null; outcome: SyncOutcome }> {
  const found = await stripe.prices.list({
    lookup_keys: [definition.lookupKey],
    expand: ['data.tiers'],
    limit: 1,
  });
  const existing = found.data[0];
  if (existing && priceMatches(existing, definition)) {
    return { priceId: existing.id, outcome: 'unchanged' };
  }
  if (dryRun) return { priceId: existing?.id ?? null, outcome: existing ? 'updated' : 'created' };
  const params = priceParams(definition);
  // Same definition replacing the same price → same key: a retry never creates a second price.
  const fingerprint = createHash('sha256')
    .update(JSON.stringify({ params, replaces: existing?.id ?? null }))
    .digest('hex');
  const created = await stripe.prices.create(params, {
    idempotencyKey: `stripe-sync-price-${fingerprint.slice(0, 40)}`,
  });
  // The lookup key moved to the new price; the old one stays for existing subscribers only.
  if (existing && existing.active) await stripe.prices.update(existing.id, { active: false });
  return { priceId: created.id, outcome: existing ? 'updated' : 'created' };
}

/**
 * Makes Stripe's products and prices match the pricing engine. Idempotent: a second run reports
 * everything unchanged. Existing subscriptions keep their price until changed (Stripe's rule).
 * Only products and prices: subscriptions reach us through webhooks, never through this.
 */
export async function syncStripeCatalog(
  stripe: Stripe,
  options: SyncOptions = {},
): Promise<CatalogSyncReport> {
  const report: CatalogSyncReport = { dryRun: options.dryRun === true, products: [], prices: [] };
  for (const product of stripeProductDefinitions()) {
    report.products.push({ id: product.id, outcome: await syncProduct(stripe, product, options) });
  }
  for (const definition of stripePriceDefinitions()) {
    const result = await syncPrice(stripe, definition, options);
    report.prices.push({ lookupKey: definition.lookupKey, ...result });
  }
  return report;
}
