import { defineDomain } from '#server/platform/domain/define-domain.ts';
import { invoiceCheckoutRoutes } from './invoice-checkout-routes.ts';
import { invoiceOrderConsoleRoutes } from './invoice-order-console-routes.ts';

/** Orders paid by invoice and the `invoice-orders` commands. */
export const invoiceDomain = defineDomain({
  name: 'invoices',
  routes: [invoiceCheckoutRoutes],
  consoleRoutes: [invoiceOrderConsoleRoutes],
  adminCommands: async () =>
    (await import('./invoice-order-admin-commands.ts')).invoiceOrderAdminCommands,
});
