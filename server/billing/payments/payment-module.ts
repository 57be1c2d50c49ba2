import { defineRoutes } from '#server/platform/api-doc/define-route.ts';
import { defineDomain } from '#server/platform/domain/define-domain.ts';
import { localBillingJob } from './local/local-billing-worker.ts';
import { localPaymentRoutes } from './local/local-routes.ts';
import type { BillingPorts } from '../billing-ports.ts';
import type { CommandSettings } from '#server/platform/commands/command.ts';
import { paymentWebhookRoutes } from './webhook-routes.ts';
import { refundConsoleRoutes } from '../refunds/refund-console-routes.ts';

/** The payment providers: Stripe's webhook, the local test provider's pages and billing engine, refunds, their commands. */
export const paymentDomain = defineDomain<BillingPorts, { deps: BillingPorts }, CommandSettings>({
  name: 'payments',
  routes: [paymentWebhookRoutes, defineRoutes([], localPaymentRoutes)],
  // Refunds in the console (decision 233); `payments refund` is the command line's.
  consoleRoutes: [refundConsoleRoutes],
  adminCommands: async () => [
    ...(await import('./stripe/stripe-admin-commands.ts')).stripeAdminCommands,
    ...(await import('./local/local-invoice-admin-commands.ts')).localInvoiceAdminCommands,
    ...(await import('../refunds/refund-admin-commands.ts')).refundAdminCommands,
    ...(await import('../subscriptions/provider-call-admin-commands.ts')).providerCallAdminCommands,
  ],
  // The local provider's billing engine: renewals, retries and period ends, each followed by its events.
  jobs: ({ deps }) => (deps.payments.name === 'local' ? [localBillingJob(deps)] : []),
});
