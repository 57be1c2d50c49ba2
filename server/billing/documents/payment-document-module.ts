import { defineDomain } from '#server/platform/domain/define-domain.ts';
import { paymentDocumentRoutes } from './payment-document-routes.ts';

/** Invoices and receipts of payments (decision 180) and the `invoices show` command. */
export const paymentDocumentDomain = defineDomain({
  name: 'payment-documents',
  routes: [paymentDocumentRoutes],
  adminCommands: async () =>
    (await import('./payment-document-admin-commands.ts')).paymentDocumentAdminCommands,
});
