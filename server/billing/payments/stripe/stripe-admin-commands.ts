import {
  AdminError,
  EXIT_OK,
  type AdminCommand,
  type CommandSettings,
} from '#server/platform/commands/command.ts';
import { printTable } from '#server/platform/commands/command-io.ts';
import { createStripeClient } from './stripe-client.ts';
import { syncStripeCatalog, type SyncOutcome } from './sync-stripe-catalog.ts';

/** What the Stripe commands read of the environment. */
interface StripeCommandSettings extends CommandSettings {
  STRIPE_SECRET_KEY?: string;
  STRIPE_API_BASE_URL?: string;
}

const dryRunWords: Record<SyncOutcome, string> = {
  created: 'would create',
  updated: 'would update',
  unchanged: 'unchanged',
};

const sync: AdminCommand<StripeCommandSettings> = {
  name: 'stripe sync',
  summary: "Create or update Stripe's products and prices from the pricing engine",
  details: [
    'Makes the Stripe account of STRIPE_SECRET_KEY sell what shared/pricing/ says: one product per',
    'edition and one tiered price per edition, billing period and currency, found by lookup keys',
    'such as orgsmith_pro_yearly_eur (decision 060). A price that differs is replaced: the new one',
    'takes the lookup key and the old one is archived (its subscribers keep it until they change).',
    'Run it once per Stripe account and after every price change; a second run changes nothing.',
    'It touches only products and prices: subscriptions reach the service through webhooks.',
    'The database is not opened.',
  ].join('\n'),
  options: {
    'dry-run': {
      type: 'boolean',
      description: 'Read Stripe and list what would be created or updated; write nothing',
    },
  },
  async run(context, { options }) {
    const { STRIPE_SECRET_KEY: secretKey, STRIPE_API_BASE_URL: apiBaseUrl } = context.env;
    if (!secretKey) {
      throw new AdminError(
        'STRIPE_SECRET_KEY is not set: nothing to sync (the local provider needs no catalogue).',
      );
    }
    const dryRun = options['dry-run'] === true;
    const report = await syncStripeCatalog(createStripeClient({ secretKey, apiBaseUrl }), {
      dryRun,
    });
    const said = (outcome: SyncOutcome) => (dryRun ? dryRunWords[outcome] : outcome);
    printTable(
      context,
      ['KIND', 'ID', 'STRIPE ID', 'OUTCOME'],
      [
        ...report.products.map((product) => [
          'product',
          product.id,
          product.id,
          said(product.outcome),
        ]),
        ...report.prices.map((price) => [
          'price',
          price.lookupKey,
          price.priceId ?? '–',
          said(price.outcome),
        ]),
      ],
    );
    const changes = [...report.products, ...report.prices].filter(
      (entry) => entry.outcome !== 'unchanged',
    ).length;
    context.io.out(
      dryRun
        ? `Dry run: ${changes} of ${report.products.length + report.prices.length} would change; nothing was written.`
        : `${changes} changed.`,
    );
    return EXIT_OK;
  },
};

/** The Stripe account's catalogue, kept in step with the pricing engine. */
export const stripeAdminCommands: readonly AdminCommand<StripeCommandSettings>[] = [sync];
