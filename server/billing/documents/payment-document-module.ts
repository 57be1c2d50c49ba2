import { defineDomain } from '#server/platform/domain/define-domain.ts';
import { documentConsoleRoutes } from './document-console-routes.ts';
import { paymentDocumentRoutes } from './payment-document-routes.ts';

/** Invoices and receipts of payments (decision 180), `invoices show` and the books' `documents` commands (decision 221). */
export const paymentDocumentDomain = defineDomain({
  name: 'payment-documents',
  routes: [paymentDocumentRoutes],
  // The month's documents and the books' exports in the console (decision 233).
  consoleRoutes: [documentConsoleRoutes],
  adminCommands: async () => [
    ...(await import('./payment-document-admin-commands.ts')).paymentDocumentAdminCommands,
    ...(await import('./document-books-admin-commands.ts')).documentBooksAdminCommands,
  ],
});
