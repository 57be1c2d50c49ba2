import type { AdminCommand } from './command.ts';
import { backupAdminCommands } from '../backup/backup-admin-commands.ts';
import { releaseAdminCommands } from '../releases/release-admin-commands.ts';
import { accessTokenAdminCommands } from '../access-tokens/access-token-admin-commands.ts';
import { contactMessageAdminCommands } from '../contact/contact-admin-commands.ts';
import { licenceAdminCommands } from '../licences/licence-admin-commands.ts';
import { outboxAdminCommands } from '../email/outbox-admin-commands.ts';
import { quoteAdminCommands } from '../quotes/quote-admin-commands.ts';
import { referralCodeAdminCommands } from '../trials/referral-code-admin-commands.ts';
import { stripeAdminCommands } from '../payments/stripe/stripe-admin-commands.ts';
import { localInvoiceAdminCommands } from '../payments/local/local-invoice-admin-commands.ts';
import { invoiceOrderAdminCommands } from '../invoices/invoice-order-admin-commands.ts';

/** Every operator command; add yours from your domain folder (one import, one spread). */
export const adminCommands: readonly AdminCommand[] = [
  ...releaseAdminCommands,
  ...licenceAdminCommands,
  ...accessTokenAdminCommands,
  ...referralCodeAdminCommands,
  ...contactMessageAdminCommands,
  ...quoteAdminCommands,
  ...outboxAdminCommands,
  ...backupAdminCommands,
  ...stripeAdminCommands,
  ...localInvoiceAdminCommands,
  ...invoiceOrderAdminCommands,
];
