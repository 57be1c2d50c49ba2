import type { Env } from '../env.ts';
import type { AdminCommand } from '../platform/commands/command.ts';
import { backupAdminCommands } from '../backup/backup-admin-commands.ts';
import { releaseAdminCommands } from '../licensing/releases/release-admin-commands.ts';
import { accessTokenAdminCommands } from '../licensing/access-tokens/access-token-admin-commands.ts';
import { contactMessageAdminCommands } from '../features/contact/contact-admin-commands.ts';
import { licenceAdminCommands } from '../licensing/licences/licence-admin-commands.ts';
import { outboxAdminCommands } from '../platform/email/outbox-admin-commands.ts';
import { quoteAdminCommands } from '../billing/quotes/quote-admin-commands.ts';
import { referralCodeAdminCommands } from '../features/trials/referral-code-admin-commands.ts';
import { stripeAdminCommands } from '../billing/payments/stripe/stripe-admin-commands.ts';
import { localInvoiceAdminCommands } from '../billing/payments/local/local-invoice-admin-commands.ts';
import { invoiceOrderAdminCommands } from '../billing/invoices/invoice-order-admin-commands.ts';

/** Every operator command; add yours from your domain folder (one import, one spread). */
export const adminCommands: readonly AdminCommand<Env>[] = [
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
