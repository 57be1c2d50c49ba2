import { defineRoutes } from '#server/platform/api-doc/define-route.ts';
import { defineDomain } from '#server/platform/domain/define-domain.ts';
import { localPaymentRoutes } from './local/local-routes.ts';
import { paymentWebhookRoutes } from './webhook-routes.ts';

/** The payment providers: Stripe's webhook, the local test provider's pages, their commands. */
export const paymentDomain = defineDomain({
  name: 'payments',
  routes: [paymentWebhookRoutes, defineRoutes([], localPaymentRoutes)],
  adminCommands: async () => [
    ...(await import('./stripe/stripe-admin-commands.ts')).stripeAdminCommands,
    ...(await import('./local/local-invoice-admin-commands.ts')).localInvoiceAdminCommands,
  ],
});
