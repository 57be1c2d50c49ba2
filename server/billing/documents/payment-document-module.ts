import { defineDomain } from '#server/platform/domain/define-domain.ts';
import { paymentDocumentRoutes } from './payment-document-routes.ts';

/** Invoices and receipts of payments (decision 180), `invoices show` and the books' `documents` commands (decision 221). */
export const paymentDocumentDomain = defineDomain({
  name: 'payment-documents',
  routes: [paymentDocumentRoutes],
  adminCommands: async () => [
    ...(await import('./payment-document-admin-commands.ts')).paymentDocumentAdminCommands,
    ...(await import('./document-books-admin-commands.ts')).documentBooksAdminCommands,
  ],
});
